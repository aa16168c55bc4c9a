// Bytes as a data: URL (RFC 2397, base64), the form PrairieLearn's results take their images in.
#pragma once

#include <string>
#include <string_view>

namespace exports::detail {

// "data:<media_type>;base64,<the bytes in base64 (RFC 4648, padded)>".
std::string data_uri(std::string_view media_type, std::string_view bytes);

}  // namespace exports::detail
