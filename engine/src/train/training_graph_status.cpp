#include "libreyolo/train.h"

namespace libreyolo {

std::string TrainingGraphStatus::summary() const {
    switch (state) {
        case State::Off:
            return "off";
        case State::RuledOut:
            return "eager: " + reason;
        case State::Waiting:
            return "waiting for a batch shape to repeat " + std::to_string(kTrainingGraphRepeatsBeforeCapture) +
                   " times";
        case State::Replaying:
            return "graphed " + shape;
        case State::FellBack:
            return "eager after a failure: " + reason;
    }
    return "off";
}

}  // namespace libreyolo
