#pragma once
// A kernel slot (spec 003): a typed operation with a reference implementation (or none, for
// operations whose callers keep a portable path of their own) and implementations registered over
// it. A call uses the most recently registered implementation that the environment's policy admits
// and whose predicate accepts the call's arguments, else the reference. A predicate that throws
// counts as declining and is reported once; an implementation that throws when run is disabled for
// the rest of the process, reported once, and the call falls back.
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kernels/policy.h"
#include "libreyolo/errors.h"
#include "libreyolo/kernels.h"
#include "libreyolo/log.h"

namespace libreyolo::kernels {

// Where an implementation comes from: compiled into the engine, or a hub plugin (which
// LIBREYOLO_HUB_KERNELS=0 turns off).
enum class Origin { Builtin, Hub };

class SlotBase {
public:
    SlotBase(std::string name, std::string signature);
    virtual ~SlotBase();
    SlotBase(const SlotBase&) = delete;
    SlotBase& operator=(const SlotBase&) = delete;
    const std::string& name() const { return name_; }
    virtual KernelSlotInfo info() const = 0;
    // Disables every implementation of provider in this slot, without a warning of its own.
    virtual void disable_provider(const std::string& provider, const std::string& reason) = 0;

protected:
    std::string name_, signature_;
};

// Every slot of the process, in construction order.
std::vector<SlotBase*>& all_slots();

// An implementation failed when run: the rest of its provider (a plugin disables itself as a
// whole) is disabled in every slot, and the hub's report says why.
void provider_failed(const std::string& provider, const std::string& reason);

// Loads the hub plugins the environment asks for, once per process (kernels/hub/hub.cpp).
void ensure_hub_plugins_loaded();

template <class Signature>
class Slot;

template <class R, class... Args>
class Slot<R(Args...)> : public SlotBase {
public:
    using Function = std::function<R(Args...)>;
    using Predicate = std::function<bool(const std::remove_cvref_t<Args>&...)>;

    Slot(std::string name, std::string signature, Function reference, std::string reference_name = "portable")
        : SlotBase(std::move(name), std::move(signature)),
          reference_(std::move(reference)),
          reference_name_(std::move(reference_name)) {}

    // Registered later means preferred. predicate may be empty (accepts every call).
    void register_impl(const std::string& name, const std::string& provider, Function fn, Predicate predicate = {},
                       Origin origin = Origin::Builtin) {
        Impl impl;
        impl.name = name;
        impl.provider = provider;
        impl.fn = std::move(fn);
        impl.predicate = std::move(predicate);
        impl.origin = origin;
        add(std::move(impl));
    }

    // A candidate that cannot run in this process (a CUDA kernel without a CUDA device): listed,
    // never chosen.
    void register_unavailable(const std::string& name, const std::string& provider, const std::string& why) {
        Impl impl;
        impl.name = name;
        impl.provider = provider;
        impl.disabled = true;
        impl.disabled_reason = why;
        add(std::move(impl));
    }

    bool has_implementation() const {
        const std::lock_guard lock(mutex_);
        return reference_ || !impls_.empty();
    }

    // Runs the chosen implementation. Throws NotSupported when none applies and there is no reference.
    R operator()(Args... args) {
        ensure_hub_plugins_loaded();
        for (;;) {
            const std::shared_ptr<Impl> chosen = choose(args...);
            if (!chosen) {
                if (!reference_) throw NotSupported("kernel slot " + name_ + ": no implementation accepts this call");
                return reference_(args...);
            }
            try {
                return chosen->fn(args...);
            } catch (const std::exception& e) {
                disable(*chosen, std::string("failed when run: ") + e.what());
            }
        }
    }

    void disable_provider(const std::string& provider, const std::string& reason) override {
        const std::lock_guard lock(mutex_);
        for (const auto& impl : impls_)
            if (impl->provider == provider && !impl->disabled) {
                impl->disabled = true;
                impl->disabled_reason = reason;
            }
    }

    KernelSlotInfo info() const override {
        const std::lock_guard lock(mutex_);
        const Policy policy = current_policy();
        KernelSlotInfo info;
        info.slot = name_;
        info.signature = signature_;
        info.active = reference_ ? reference_name_ : "unavailable";
        bool found = false;
        for (const auto& entry : impls_) {
            const Impl& impl = *entry;
            KernelCandidate c{impl.name, impl.provider, !impl.disabled, ""};
            if (impl.disabled)
                c.passed_over = impl.disabled_reason;
            else if (const std::string refused = policy.refuses(impl.provider, impl.origin == Origin::Hub);
                     !refused.empty())
                c.passed_over = refused;
            else if (found)
                c.passed_over = "a later registration is preferred";
            else if (impl.last_declined)
                c.passed_over = impl.last_declined_reason;
            if (c.passed_over.empty()) {
                found = true;
                info.active = impl.name;
            }
            info.candidates.push_back(c);
        }
        if (reference_)
            info.candidates.push_back(
                {reference_name_, kReferenceProvider, true, found ? "an accelerated implementation applies" : ""});
        return info;
    }

private:
    struct Impl {
        std::string name, provider;
        Function fn;
        Predicate predicate;
        bool disabled = false;
        std::string disabled_reason;
        bool last_declined = false;
        std::string last_declined_reason;
        bool warned_predicate = false;
        Origin origin = Origin::Builtin;
    };

    void add(Impl impl) {
        const std::lock_guard lock(mutex_);
        impls_.insert(impls_.begin(), std::make_shared<Impl>(std::move(impl)));
    }

    std::shared_ptr<Impl> choose(const Args&... args) {
        const Policy policy = current_policy();
        const std::lock_guard lock(mutex_);
        for (const auto& entry : impls_) {
            Impl& impl = *entry;
            if (impl.disabled || !policy.refuses(impl.provider, impl.origin == Origin::Hub).empty()) continue;
            bool accepts = true;
            try {
                accepts = !impl.predicate || impl.predicate(args...);
                impl.last_declined_reason = accepts ? "" : "its predicate declined the last call";
            } catch (const std::exception& e) {
                accepts = false;
                impl.last_declined_reason = std::string("its predicate threw: ") + e.what();
                if (!impl.warned_predicate)
                    log_warning("kernels", name_ + ": the predicate of " + impl.name + " (" + impl.provider +
                                               ") threw: " + e.what() + "; treating it as declining");
                impl.warned_predicate = true;
            }
            impl.last_declined = !accepts;
            if (accepts) return entry;
        }
        return nullptr;
    }

    // One warning; the rest of the provider goes quietly (provider_failed).
    void disable(Impl& impl, const std::string& reason) {
        {
            const std::lock_guard lock(mutex_);
            if (impl.disabled) return;  // another thread's call failed first and said so
            impl.disabled = true;
            impl.disabled_reason = reason;
        }
        log_warning("kernels", name_ + ": " + impl.name + " (" + impl.provider + ") " + reason +
                                   "; disabled for the rest of the process, falling back");
        provider_failed(impl.provider, name_ + ": " + impl.name + " " + reason);
    }

    mutable std::mutex mutex_;
    Function reference_;
    std::string reference_name_;
    std::vector<std::shared_ptr<Impl>> impls_;  // most preferred first; shared: a call keeps its own
};

}  // namespace libreyolo::kernels
