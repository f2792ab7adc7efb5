#pragma once
// Typed errors thrown by the engine. Every message names the file, key or field at fault.
#include <stdexcept>
#include <string>

namespace libreyolo {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A user-supplied value is malformed or out of range (CLI key, option, device string).
class InvalidArgument : public Error {
public:
    using Error::Error;
};

// A path that was named does not exist.
class FileNotFound : public Error {
public:
    using Error::Error;
};

// A file exists but cannot be used: corrupt, truncated, hostile or of an unsupported kind.
class FormatError : public Error {
public:
    using Error::Error;
};

// A model family, size or task that the registry does not know.
class UnknownModel : public Error {
public:
    using Error::Error;
};

// Weights that do not fit the architecture (missing, unexpected or mis-shaped keys).
class WeightsMismatch : public Error {
public:
    using Error::Error;
};

// A requested device is not usable here.
class DeviceError : public Error {
public:
    using Error::Error;
};

// A feature that this family, task or configuration does not support.
class NotSupported : public Error {
public:
    using Error::Error;
};

}  // namespace libreyolo
