#pragma once
// `libreyolo train device=0,1`: one process per listed device on this machine, each the same
// command with RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT set (what torchrun does),
// so the engine's distributed run takes over from there.
#include <optional>
#include <string>
#include <vector>

namespace libreyolo::cli {

// The devices of a list ("0,1" → cuda:0, cuda:1; "cpu,cpu" → two CPU ranks), or nullopt for a
// single device. Throws InvalidArgument naming a malformed entry.
std::optional<std::vector<std::string>> device_list(const std::string& device);

// Starts one `libreyolo train <args> device=<devices[i]>` per device and waits for all. When one
// fails, the others are stopped (SIGTERM, then SIGKILL after a grace period) and its failure is
// reported; returns the exit code for the whole run.
int launch_local_ranks(const std::vector<std::string>& devices, const std::vector<std::string>& train_args);

}  // namespace libreyolo::cli
