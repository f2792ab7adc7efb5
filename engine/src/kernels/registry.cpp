#include <algorithm>

#include "kernels/conv_bias_act_slot.h"
#include "kernels/decode_topk_slot.h"
#include "kernels/deform/ms_deform_attn.h"
#include "kernels/fake_quant_slot.h"
#include "kernels/letterbox_slot.h"
#include "kernels/nms_slot.h"
#include "kernels/pool_slots.h"
#include "kernels/slot.h"

namespace libreyolo::kernels {

std::vector<SlotBase*>& all_slots() {
    static std::vector<SlotBase*> slots;
    return slots;
}

SlotBase::SlotBase(std::string name, std::string signature) : name_(std::move(name)), signature_(std::move(signature)) {
    all_slots().push_back(this);
}

SlotBase::~SlotBase() {
    std::erase(all_slots(), this);
}

}  // namespace libreyolo::kernels

namespace libreyolo {

std::vector<KernelSlotInfo> kernel_report() {
    // The built-in slots exist before the first call that uses them; so do the plugins' candidates.
    kernels::nms_slot();
    kernels::fake_quant_fp8_slot();
    kernels::ms_deform_attn_slot();
    kernels::conv_bias_act_slot();
    kernels::letterbox_slot();
    kernels::decode_topk_slot();
    kernels::spp_max_pool_slot();
    kernels::avg_pool_2x2_slot();
    kernels::ensure_hub_plugins_loaded();
    std::vector<KernelSlotInfo> report;
    for (const kernels::SlotBase* slot : kernels::all_slots()) report.push_back(slot->info());
    return report;
}

}  // namespace libreyolo
