#pragma once
// One editor per option of the training options schema (libreyolo/options.h), by its type: a check
// box for a bool, a spin box for an integer within its bounds, a combo box for a choice, a line for
// a number, a pair or text. The editor reads and writes the option's text as the CLI spells it.
#include <QString>
#include <QWidget>

#include <functional>

#include "libreyolo/options.h"

struct OptionEditor {
    QWidget* widget = nullptr;  // object name: the option's key
    std::function<QString()> text;
    std::function<void(const QString&)> setText;
};

// The editor for spec, parented to parent, named after its key.
OptionEditor makeOptionEditor(const libreyolo::OptionSpec& spec, QWidget* parent);

// "help (value: ...; default: ...)": the tooltip of an option's row.
QString optionToolTip(const libreyolo::OptionSpec& spec);
