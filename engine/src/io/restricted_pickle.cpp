#include "io/restricted_pickle.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

#include "libreyolo/errors.h"

namespace libreyolo::io {
namespace {

using Kind = PickleValue::Kind;

constexpr int kMaxDepth = 256;

// torch.<Type>Storage, as torch.save names a storage's element type.
const std::map<std::string, torch::ScalarType>& storage_types() {
    static const std::map<std::string, torch::ScalarType> types = {
        {"torch.FloatStorage", torch::kFloat32}, {"torch.DoubleStorage", torch::kFloat64},
        {"torch.HalfStorage", torch::kFloat16},  {"torch.BFloat16Storage", torch::kBFloat16},
        {"torch.LongStorage", torch::kInt64},    {"torch.IntStorage", torch::kInt32},
        {"torch.ShortStorage", torch::kInt16},   {"torch.CharStorage", torch::kInt8},
        {"torch.ByteStorage", torch::kUInt8},    {"torch.BoolStorage", torch::kBool}};
    return types;
}

// The globals a weights-only checkpoint may name; every other one is refused.
bool allowed_global(const std::string& name) {
    return name == "collections.OrderedDict" || name == "torch._utils._rebuild_tensor_v2" ||
           name == "torch._utils._rebuild_parameter" || storage_types().count(name) != 0;
}

PickleRef make(Kind kind) {
    auto v = std::make_shared<PickleValue>();
    v->kind = kind;
    return v;
}

class Unpickler {
public:
    Unpickler(std::string_view bytes, const std::string& source, const StorageLoader& load_storage)
        : bytes_(bytes), source_(source), load_storage_(load_storage) {}

    PickleRef run() {
        while (true) {
            opcode_at_ = pos_;
            const auto op = static_cast<unsigned char>(take(1)[0]);
            if (op == '.') break;  // STOP
            step(op);
        }
        if (stack_.size() != 1) fail("the pickle ends with " + std::to_string(stack_.size()) + " values, not one");
        return stack_.back();
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw FormatError(source_ + ": data.pkl byte " + std::to_string(opcode_at_) + ": " + what);
    }

    std::string_view take(std::size_t n) {
        if (n > bytes_.size() - pos_)
            fail("truncated (" + std::to_string(n) + " bytes wanted, " + std::to_string(bytes_.size() - pos_) +
                 " left)");
        const std::string_view out = bytes_.substr(pos_, n);
        pos_ += n;
        return out;
    }
    template <typename T>
    T little_endian() {
        T v;
        std::memcpy(&v, take(sizeof(T)).data(), sizeof(T));
        return v;
    }
    std::string_view line() {
        const std::size_t end = bytes_.find('\n', pos_);
        if (end == std::string_view::npos) fail("truncated (a line without its end)");
        const std::string_view out = bytes_.substr(pos_, end - pos_);
        pos_ = end + 1;
        return out;
    }

    PickleRef pop() {
        if (stack_.size() <= floor()) fail("a value is missing (the stack is empty)");
        PickleRef v = stack_.back();
        stack_.pop_back();
        return v;
    }
    std::size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
    PickleRef& top() {
        if (stack_.size() <= floor()) fail("a value is missing (the stack is empty)");
        return stack_.back();
    }
    // The values above the last mark, which is dropped.
    std::vector<PickleRef> pop_to_mark() {
        if (marks_.empty()) fail("no mark to pop to");
        const std::size_t mark = marks_.back();
        marks_.pop_back();
        std::vector<PickleRef> out(stack_.begin() + static_cast<std::ptrdiff_t>(mark), stack_.end());
        stack_.resize(mark);
        return out;
    }
    void push(PickleRef v) {
        if (stack_.size() > (1u << 24)) fail("more than 16M values on the stack");
        stack_.push_back(std::move(v));
    }
    static bool is_container(const PickleValue& v) {
        return v.kind == Kind::List || v.kind == Kind::Tuple || v.kind == Kind::Dict;
    }
    // Records that child now sits inside parent; its height is final, since it can no longer change.
    void place(PickleValue& parent, PickleValue& child) {
        if (!is_container(child)) return;
        if (&child == &parent) fail("a structure that contains itself");
        child.placed = true;
        parent.height = std::max(parent.height, child.height + 1);
        if (parent.height > kMaxDepth) fail("containers nested more than " + std::to_string(kMaxDepth) + " deep");
    }
    void check_open(const PickleValue& container, const char* change) const {
        if (container.placed)
            fail(std::string(change) +
                 " a container already placed inside another (how a structure that contains itself is built)");
    }
    void push_int(int64_t i) {
        PickleRef v = make(Kind::Int);
        v->integer = i;
        push(v);
    }
    void push_string(Kind kind, std::string_view text) {
        PickleRef v = make(kind);
        v->text = std::string(text);
        push(v);
    }
    void memo_put(uint32_t index) { memo_[index] = top(); }
    void memo_get(uint32_t index) {
        const auto it = memo_.find(index);
        if (it == memo_.end()) fail("memo entry " + std::to_string(index) + " was never stored");
        push(it->second);
    }
    void push_tuple(std::vector<PickleRef> items) {
        PickleRef t = make(Kind::Tuple);
        for (const auto& item : items) place(*t, *item);
        t->items = std::move(items);
        push(t);
    }
    void push_global(std::string name) {
        if (!allowed_global(name))
            fail("refuses the global '" + name +
                 "': a weights-only checkpoint holds tensors, dicts, lists, tuples, strings and numbers");
        PickleRef g = make(Kind::Global);
        g->text = std::move(name);
        push(g);
    }
    void set_items(PickleValue& dict, const std::vector<PickleRef>& kv) {
        if (dict.kind != Kind::Dict) fail("items set on something that is not a dict");
        if (kv.size() % 2) fail("a dict's items come in pairs");
        check_open(dict, "items set on");
        for (const auto& v : kv) place(dict, *v);
        for (std::size_t i = 0; i < kv.size(); i += 2) dict.entries.emplace_back(kv[i], kv[i + 1]);
    }
    void append(PickleValue& list, const std::vector<PickleRef>& values) {
        if (list.kind != Kind::List) fail("items appended to something that is not a list");
        check_open(list, "items appended to");
        for (const auto& v : values) place(list, *v);
        list.items.insert(list.items.end(), values.begin(), values.end());
    }

    int64_t as_int(const PickleRef& v, const char* what) const {
        if (v->kind != Kind::Int) fail(std::string(what) + " is not an integer");
        return v->integer;
    }
    std::vector<int64_t> int_tuple(const PickleRef& v, const char* what) const {
        if (v->kind != Kind::Tuple) fail(std::string(what) + " is not a tuple");
        std::vector<int64_t> out;
        for (const auto& item : v->items) out.push_back(as_int(item, what));
        return out;
    }

    PickleRef storage(const PickleRef& pid) {
        const auto& id = pid->items;
        if (pid->kind != Kind::Tuple || id.size() != 5 || id[0]->kind != Kind::String || id[0]->text != "storage" ||
            id[1]->kind != Kind::Global || id[2]->kind != Kind::String)
            fail("a persistent id that is not ('storage', type, key, location, numel)");
        const auto type = storage_types().find(id[1]->text);
        if (type == storage_types().end()) fail("a storage of type '" + id[1]->text + "'");
        const int64_t numel = as_int(id[4], "a storage's element count");
        if (numel < 0) fail("a storage of " + std::to_string(numel) + " elements");
        PickleRef s = make(Kind::Storage);
        auto& cached = storages_[id[2]->text];
        if (!cached.defined()) cached = load_storage_(id[2]->text, type->second, numel);
        if (cached.scalar_type() != type->second || cached.numel() != numel)
            fail("storage '" + id[2]->text + "' is named with two types or sizes");
        s->tensor = cached;
        return s;
    }

    // torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks[, metadata]).
    PickleRef rebuild_tensor(const PickleRef& args) {
        if (args->kind != Kind::Tuple || args->items.size() < 4) fail("_rebuild_tensor_v2 without its arguments");
        const PickleRef& storage = args->items[0];
        if (storage->kind != Kind::Storage) fail("_rebuild_tensor_v2 of something that is not a storage");
        const int64_t offset = as_int(args->items[1], "a tensor's storage offset");
        const std::vector<int64_t> size = int_tuple(args->items[2], "a tensor's size");
        const std::vector<int64_t> stride = int_tuple(args->items[3], "a tensor's stride");
        if (size.size() != stride.size())
            fail("a tensor with " + std::to_string(size.size()) + " sizes and " + std::to_string(stride.size()) +
                 " strides");
        // The last element the view reaches must lie in the storage.
        int64_t last = offset, elements = 1;
        bool empty = false;
        for (std::size_t d = 0; d < size.size(); ++d) {
            if (size[d] < 0 || stride[d] < 0) fail("a tensor with a negative size or stride");
            if (size[d] == 0) empty = true;
            if (size[d] > 0 && stride[d] > (int64_t{1} << 40) / size[d]) fail("a tensor stride too large");
            last += (size[d] > 0 ? size[d] - 1 : 0) * stride[d];
            if (size[d] > 0 && elements > (int64_t{1} << 40) / size[d]) fail("a tensor too large");
            elements *= size[d];
        }
        const int64_t numel = storage->tensor.numel();
        if (offset < 0 || (!empty && last >= numel))
            fail("a tensor reaching element " + std::to_string(last) + " of a storage of " + std::to_string(numel));
        PickleRef t = make(Kind::Tensor);
        t->tensor = empty ? torch::empty(size, storage->tensor.options())
                          : storage->tensor.as_strided(size, stride, offset).clone();
        return t;
    }

    PickleRef reduce(const PickleRef& callable, const PickleRef& args) {
        if (callable->kind != Kind::Global) fail("a call of something that is not an allowed global");
        const std::string& name = callable->text;
        if (name == "collections.OrderedDict") {
            if (args->kind != Kind::Tuple || !args->items.empty()) fail("OrderedDict built with arguments");
            return make(Kind::Dict);
        }
        if (name == "torch._utils._rebuild_tensor_v2") return rebuild_tensor(args);
        if (name == "torch._utils._rebuild_parameter") {
            if (args->kind != Kind::Tuple || args->items.empty() || args->items[0]->kind != Kind::Tensor)
                fail("_rebuild_parameter of something that is not a tensor");
            return args->items[0];
        }
        fail("refuses to call '" + name + "'");
    }

    void step(unsigned char op) {
        switch (op) {
            case 0x80:  // PROTO
                if (static_cast<unsigned char>(take(1)[0]) > 5) fail("pickle protocol above 5");
                return;
            case 0x95:  // FRAME
                take(8);
                return;
            case '(':  // MARK
                marks_.push_back(stack_.size());
                return;
            case '}':
                push(make(Kind::Dict));
                return;
            case ']':
                push(make(Kind::List));
                return;
            case ')':
                push_tuple({});
                return;
            case 't':
                push_tuple(pop_to_mark());
                return;
            case 0x85:
            case 0x86:
            case 0x87: {
                std::vector<PickleRef> items(op - 0x84);
                for (auto it = items.rbegin(); it != items.rend(); ++it) *it = pop();
                push_tuple(std::move(items));
                return;
            }
            case 'N':
                push(make(Kind::None));
                return;
            case 0x88:
            case 0x89: {
                PickleRef b = make(Kind::Bool);
                b->boolean = op == 0x88;
                push(b);
                return;
            }
            case 'J':
                push_int(little_endian<int32_t>());
                return;
            case 'K':
                push_int(little_endian<uint8_t>());
                return;
            case 'M':
                push_int(little_endian<uint16_t>());
                return;
            case 0x8a: {  // LONG1: a little-endian two's-complement integer of n bytes
                const auto n = little_endian<uint8_t>();
                if (n > 8) fail("an integer of " + std::to_string(n) + " bytes");
                const std::string_view raw = take(n);
                uint64_t u = 0;
                for (std::size_t i = 0; i < n; ++i) u |= uint64_t(static_cast<unsigned char>(raw[i])) << (8 * i);
                if (n > 0 && n < 8 && (static_cast<unsigned char>(raw[n - 1]) & 0x80)) u |= ~uint64_t{0} << (8 * n);
                push_int(static_cast<int64_t>(u));
                return;
            }
            case 'G': {  // BINFLOAT, big-endian
                const std::string_view raw = take(8);
                uint64_t u = 0;
                for (char c : raw) u = (u << 8) | static_cast<unsigned char>(c);
                PickleRef f = make(Kind::Float);
                std::memcpy(&f->number, &u, 8);
                push(f);
                return;
            }
            case 'X':
                push_string(Kind::String, take(little_endian<uint32_t>()));
                return;
            case 0x8c:
                push_string(Kind::String, take(little_endian<uint8_t>()));
                return;
            case 0x8d:
                push_string(Kind::String, take(static_cast<std::size_t>(little_endian<uint64_t>())));
                return;
            case 'B':
                push_string(Kind::Bytes, take(little_endian<uint32_t>()));
                return;
            case 'C':
                push_string(Kind::Bytes, take(little_endian<uint8_t>()));
                return;
            case 'q':
                memo_put(little_endian<uint8_t>());
                return;
            case 'r':
                memo_put(little_endian<uint32_t>());
                return;
            case 0x94:  // MEMOIZE
                memo_put(static_cast<uint32_t>(memo_.size()));
                return;
            case 'h':
                memo_get(little_endian<uint8_t>());
                return;
            case 'j':
                memo_get(little_endian<uint32_t>());
                return;
            case 'c': {  // GLOBAL module\nname\n
                std::string module(line());
                const std::string name(line());
                push_global(module + "." + name);
                return;
            }
            case 0x93: {  // STACK_GLOBAL
                const PickleRef name = pop(), module = pop();
                if (name->kind != Kind::String || module->kind != Kind::String) fail("a global named by non-strings");
                push_global(module->text + "." + name->text);
                return;
            }
            case 'R': {
                const PickleRef args = pop(), callable = pop();
                push(reduce(callable, args));
                return;
            }
            case 'b': {  // BUILD: an OrderedDict's attributes (state_dict's _metadata), dropped
                const PickleRef state = pop();
                if (top()->kind != Kind::Dict) fail("object state set on something that is not a dict");
                (void)state;
                return;
            }
            case 'Q':
                push(storage(pop()));
                return;
            case 's': {
                const PickleRef value = pop(), key = pop();
                set_items(*top(), {key, value});
                return;
            }
            case 'u': {
                const std::vector<PickleRef> kv = pop_to_mark();
                set_items(*top(), kv);
                return;
            }
            case 'a': {
                const PickleRef value = pop();
                append(*top(), {value});
                return;
            }
            case 'e': {
                const std::vector<PickleRef> values = pop_to_mark();
                append(*top(), values);
                return;
            }
            default: {
                char hex[8];
                std::snprintf(hex, sizeof hex, "0x%02x", op);
                fail(std::string("opcode ") + hex + " is not one a weights-only checkpoint uses");
            }
        }
    }

    std::string_view bytes_;
    const std::string& source_;
    const StorageLoader& load_storage_;
    std::size_t pos_ = 0, opcode_at_ = 0;
    std::vector<PickleRef> stack_;
    std::vector<std::size_t> marks_;
    std::unordered_map<uint32_t, PickleRef> memo_;
    std::map<std::string, torch::Tensor> storages_;
};

}  // namespace

PickleRef unpickle(std::string_view bytes, const std::string& source, const StorageLoader& load_storage) {
    return Unpickler(bytes, source, load_storage).run();
}

}  // namespace libreyolo::io
