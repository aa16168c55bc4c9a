// Matrix-product parameters read from a lab's spec: shapes [m, k, n] (the spec's "sizes", its
// "dimensions" [m, k, n]) and the kinds of values. Errors are SpecErrors naming the file, the
// check and the key, like CheckSpec's own readers.
#pragma once

#include <string_view>
#include <vector>

#include "harness/contract.hpp"
#include "harness/matmul.hpp"

namespace harness {

// A shape [m, k, n]: C (m x n) = A (m x k) * B (k x n). Every size runs from 1 to `max_size`,
// and every matrix has fewer than 2^31 elements (the labs' contracts index with int).
// The one shape of a structure or speed check.
MatmulShape matmul_shape(const CheckSpec& spec, int max_size);
// The check's shapes.
std::vector<MatmulShape> matmul_shapes(const CheckSpec& spec, int max_size);

// "values": ["integers", "reals"]; integers alone when the check does not say.
std::vector<Values> spec_values(const CheckSpec& spec);

}  // namespace harness
