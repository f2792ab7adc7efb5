#pragma once
// A small least-recently-used map: the per-model bound on captured graphs. Independent of CUDA so
// that its bookkeeping is tested on any machine.
#include <cstddef>
#include <list>
#include <memory>
#include <utility>
#include <vector>

namespace libreyolo::graphs {

template <typename Key, typename Value>
class LruCache {
public:
    explicit LruCache(std::size_t limit) : limit_(limit < 1 ? 1 : limit) {}

    // The entry for key, now the most recently used; null when absent.
    Value* find(const Key& key) {
        for (auto it = entries_.begin(); it != entries_.end(); ++it)
            if (it->first == key) {
                entries_.splice(entries_.begin(), entries_, it);
                return it->second.get();
            }
        return nullptr;
    }
    // Adds (or replaces) key as the most recently used; evicts the least recently used entries
    // beyond the limit and returns their keys.
    std::vector<Key> insert(const Key& key, std::unique_ptr<Value> value) {
        erase(key);
        entries_.emplace_front(key, std::move(value));
        return trim();
    }
    void erase(const Key& key) {
        entries_.remove_if([&](const auto& e) { return e.first == key; });
    }
    std::vector<Key> set_limit(std::size_t limit) {
        limit_ = limit < 1 ? 1 : limit;
        return trim();
    }
    std::size_t limit() const { return limit_; }
    std::size_t size() const { return entries_.size(); }
    void clear() { entries_.clear(); }
    // Most recently used first.
    const std::list<std::pair<Key, std::unique_ptr<Value>>>& entries() const { return entries_; }

private:
    std::vector<Key> trim() {
        std::vector<Key> evicted;
        while (entries_.size() > limit_) {
            evicted.push_back(entries_.back().first);
            entries_.pop_back();
        }
        return evicted;
    }
    std::size_t limit_;
    std::list<std::pair<Key, std::unique_ptr<Value>>> entries_;
};

}  // namespace libreyolo::graphs
