#pragma once
#include <string>
#include <vector>

namespace libreyolo::cli {

// Each returns the process exit code: 0 success, 1 failure, 2 usage error.
int run_predict(const std::vector<std::string>& argv);
int run_info(const std::vector<std::string>& argv);
int run_convert(const std::vector<std::string>& argv);
int run_version(const std::vector<std::string>& argv);
int run_synth(const std::vector<std::string>& argv);
int run_check(const std::vector<std::string>& argv);
int run_val(const std::vector<std::string>& argv);
int run_train(const std::vector<std::string>& argv);

}  // namespace libreyolo::cli
