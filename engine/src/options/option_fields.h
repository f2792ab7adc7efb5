#pragma once
// How a TrainOptions field becomes an OptionSpec: its type from the member's C++ type, get and set
// through its text as the CLI spells it.
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libreyolo/options.h"

namespace libreyolo::options {

// Shortest text that reads back to the same value ("0.01", not "0.0100000000000000002").
std::string number_text(double value);
std::string number_text(float value);

bool parse_bool(const std::string& key, const std::string& text);
int parse_int(const std::string& key, const std::string& text);
double parse_number(const std::string& key, const std::string& text);
std::array<float, 2> parse_pair(const std::string& key, const std::string& text);

template <class T>
struct FieldCodec;

template <>
struct FieldCodec<bool> {
    static constexpr OptionType type = OptionType::Bool;
    static std::string text(bool v) { return v ? "true" : "false"; }
    static bool parse(const std::string& key, const std::string& t) { return parse_bool(key, t); }
};
template <>
struct FieldCodec<int> {
    static constexpr OptionType type = OptionType::Int;
    static std::string text(int v) { return std::to_string(v); }
    static int parse(const std::string& key, const std::string& t) { return parse_int(key, t); }
};
template <>
struct FieldCodec<double> {
    static constexpr OptionType type = OptionType::Float;
    static std::string text(double v) { return number_text(v); }
    static double parse(const std::string& key, const std::string& t) { return parse_number(key, t); }
};
template <>
struct FieldCodec<float> {
    static constexpr OptionType type = OptionType::Float;
    static std::string text(float v) { return number_text(v); }
    static float parse(const std::string& key, const std::string& t) {
        return static_cast<float>(parse_number(key, t));
    }
};
template <>
struct FieldCodec<std::string> {
    static constexpr OptionType type = OptionType::Text;
    static std::string text(const std::string& v) { return v; }
    static std::string parse(const std::string&, const std::string& t) { return t; }
};
template <>
struct FieldCodec<std::array<float, 2>> {
    static constexpr OptionType type = OptionType::FloatPair;
    static std::string text(const std::array<float, 2>& v) { return number_text(v[0]) + "," + number_text(v[1]); }
    static std::array<float, 2> parse(const std::string& key, const std::string& t) { return parse_pair(key, t); }
};

// spec with type, get and set filled in for the field member.
template <class T>
OptionSpec field(T TrainOptions::*member, OptionSpec spec) {
    spec.type = FieldCodec<T>::type;
    spec.get = [member](const TrainOptions& o) { return FieldCodec<T>::text(o.*member); };
    spec.set = [member, key = spec.key](TrainOptions& o, const std::string& text) {
        o.*member = FieldCodec<T>::parse(key, text);
    };
    return spec;
}

// An enumeration spelled by names (in the enumerators' order), matched case-insensitively.
std::size_t parse_choice(const std::string& key, const std::string& text, const std::vector<std::string>& names);

template <class E>
OptionSpec choice(E TrainOptions::*member, std::vector<std::string> names, OptionSpec spec) {
    spec.type = OptionType::Choice;
    spec.choices = names;
    spec.get = [member, names](const TrainOptions& o) { return names.at(static_cast<std::size_t>(o.*member)); };
    spec.set = [member, names, key = spec.key](TrainOptions& o, const std::string& text) {
        o.*member = static_cast<E>(parse_choice(key, text, names));
    };
    return spec;
}

}  // namespace libreyolo::options
