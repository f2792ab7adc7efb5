#include "io/http_download.h"

#include <fstream>

#include "libreyolo/errors.h"
#ifdef LIBREYOLO_HAVE_CURL
#include <curl/curl.h>
#endif

namespace libreyolo::io {
namespace fs = std::filesystem;

#ifdef LIBREYOLO_HAVE_CURL

namespace {

std::size_t write_to_stream(char* data, std::size_t size, std::size_t count, void* stream) {
    auto& out = *static_cast<std::ofstream*>(stream);
    out.write(data, static_cast<std::streamsize>(size * count));
    return out ? size * count : 0;
}

// libcurl's transfer callback: non-zero aborts the transfer.
int report_progress(void* callback, curl_off_t total, curl_off_t received, curl_off_t, curl_off_t) {
    const auto& progress = *static_cast<const DownloadProgress*>(callback);
    return progress(static_cast<std::int64_t>(received), static_cast<std::int64_t>(total)) ? 0 : 1;
}

}  // namespace

bool download_available() {
    return true;
}

void download_file(const std::string& url, const fs::path& target, const DownloadProgress& progress) {
    static const CURLcode global = curl_global_init(CURL_GLOBAL_DEFAULT);
    if (global != CURLE_OK) throw Error("download " + url + ": libcurl: " + curl_easy_strerror(global));
    fs::create_directories(target.parent_path());
    const fs::path partial = target.string() + ".partial";
    CURLcode code;
    long status = 0;
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        if (!out) throw Error("download " + url + ": cannot write " + partial.string());
        CURL* curl = curl_easy_init();
        if (!curl) throw Error("download " + url + ": libcurl could not start");
        curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
        curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
        curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
        curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 15L);
        // A stalled transfer (under 1 KiB/s for 30 s) ends instead of hanging the caller.
        curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1024L);
        curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 30L);
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &write_to_stream);
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out);
        if (progress) {
            curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &report_progress);
            curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &progress);
            curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
        }
        code = curl_easy_perform(curl);
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
        curl_easy_cleanup(curl);
    }
    if (code != CURLE_OK) {
        std::error_code ignored;
        fs::remove(partial, ignored);
        const std::string http = status >= 400 ? " (HTTP " + std::to_string(status) + ")" : "";
        if (code == CURLE_ABORTED_BY_CALLBACK) throw Error("download " + url + ": cancelled");
        throw Error("download " + url + ": " + curl_easy_strerror(code) + http);
    }
    fs::rename(partial, target);
}

#else

bool download_available() {
    return false;
}

void download_file(const std::string& url, const fs::path&, const DownloadProgress&) {
    throw Error("download " + url + ": this build has no libcurl (install libcurl4-openssl-dev and rebuild)");
}

#endif

}  // namespace libreyolo::io
