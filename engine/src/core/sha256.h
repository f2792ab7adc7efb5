#pragma once
// SHA-256 (FIPS 180-4), for verifying hub plugin files before they are loaded.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace libreyolo {

class Sha256 {
public:
    Sha256();
    void update(const void* data, std::size_t size);
    std::string hex_digest();  // lowercase; the object is spent afterwards

private:
    void block(const std::uint8_t* p);
    std::uint32_t h_[8];
    std::uint8_t buffer_[64];
    std::size_t buffered_ = 0;
    std::uint64_t total_ = 0;
};

std::string sha256_hex(std::string_view bytes);
// Throws libreyolo::Error naming the file when it cannot be read.
std::string sha256_hex_of_file(const std::filesystem::path& path);

}  // namespace libreyolo
