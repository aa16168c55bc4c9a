// The contract's vocabulary (contract/: the result record, the lab spec, points from verdicts) as
// the harness and the labs' checks spell it. harness::CaseResult, harness::Verdict,
// harness::CheckSpec and the rest are the contract's own types under a second name, not copies:
// the checks (labs/*/tests) are written against the harness and need not know where the record
// is defined, while labgrade and the reports use the contract alone.
#pragma once

#include "contract/grade.hpp"
#include "contract/record.hpp"
#include "contract/spec.hpp"

namespace harness {

// contract/record.hpp
using contract::CaseResult;
using contract::CheckRecord;
using contract::DeviceInfo;
using contract::Diagnosis;
using contract::ErrorMap;
using contract::Evidence;
using contract::format_value;
using contract::GpuHealth;
using contract::KernelFacts;
using contract::kRecordSchema;
using contract::Mismatch;
using contract::OutOfBoundsWrite;
using contract::read_record;
using contract::read_records;
using contract::record_path;
using contract::RecordError;
using contract::rounds_disagreement;
using contract::Timing;
using contract::TimingRound;
using contract::to_string;
using contract::utc_timestamp;
using contract::Verdict;
using contract::verdict_from_string;
using contract::verdict_words;
using contract::write_record;

// contract/spec.hpp
using contract::apply_overrides;
using contract::CheckSpec;
using contract::LabSpec;
using contract::load_spec;
using contract::parse_spec;
using contract::SpecError;

// contract/grade.hpp
using contract::points_for;

}  // namespace harness
