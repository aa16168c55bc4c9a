// The JSON form of a record's parts (a case, its mismatches and error map, a diagnosis, the
// kernels' facts, the evidence, a timing, the device), for record.cpp, which reads and writes whole
// records.
#pragma once

#include <nlohmann/json.hpp>

#include "contract/record.hpp"

namespace contract::record_json {

using nlohmann::json;

// Reads an optional field, keeping the default when it is absent; a field of the wrong type
// throws (nlohmann's type_error), which read_record turns into a RecordError.
template <class T>
void read_optional(const json& in, const char* key, T& target) {
  if (auto it = in.find(key); it != in.end() && !it->is_null()) it->get_to(target);
}

json to_json_value(const Mismatch& m);
Mismatch mismatch_from(const json& in);
json to_json_value(const ErrorMap& map);
ErrorMap error_map_from(const json& in);
json to_json_value(const Diagnosis& d);
Diagnosis diagnosis_from(const json& in);
json to_json_value(const KernelFacts& k);
KernelFacts kernel_facts_from(const json& in);
json to_json_value(const CaseResult& c);
CaseResult case_from(const json& in);
json to_json_value(const Timing& t);
Timing timing_from(const json& in);
json to_json_value(const Evidence& e);
Evidence evidence_from(const json& in);
json to_json_value(const DeviceInfo& d);
DeviceInfo device_from(const json& in);

}  // namespace contract::record_json
