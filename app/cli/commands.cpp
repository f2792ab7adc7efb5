// The table of `libreyolo` commands, in the order `libreyolo help` lists them.
#include "cli_common.h"

namespace libreyolo::cli {

extern const Command kPredictCommand, kTrackCommand, kTrainCommand, kValCommand, kInfoCommand, kConvertCommand,
    kSynthCommand, kCheckCommand, kKernelsCommand, kQuantizeCommand, kExportCommand, kCfgCommand, kVersionCommand;

const std::vector<Command>& commands() {
    static const std::vector<Command> table = {kPredictCommand, kTrackCommand,   kTrainCommand,    kValCommand,
                                               kInfoCommand,    kConvertCommand, kQuantizeCommand, kExportCommand, kSynthCommand,
                                               kCheckCommand,   kKernelsCommand, kCfgCommand, kVersionCommand};
    return table;
}

}  // namespace libreyolo::cli
