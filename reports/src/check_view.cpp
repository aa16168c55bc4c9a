#include "check_view.hpp"

#include <fmt/format.h>

namespace reports::detail {

std::vector<CheckView> make_check_views(const contract::LabGrade& grade,
                                        const std::string& no_record_reason) {
  std::vector<CheckView> views;
  views.reserve(grade.checks.size());
  for (const auto& check : grade.checks) {
    CheckView view;
    // Anchors use the position, not the id: ids come from files and need not be valid HTML ids.
    view.anchor = fmt::format("check-{}", views.size() + 1);
    view.record = check.record ? &*check.record : nullptr;
    // The spec is authoritative for names; the record fills in only for a grade built without one.
    if (check.spec) {
      view.id = check.spec->id;
      view.title = check.spec->title;
      view.kind = check.spec->bonus ? check.spec->kind + " (bonus)" : check.spec->kind;
    } else if (view.record) {
      view.id = view.record->check;
      view.title = view.record->title;
      view.kind = view.record->kind;
    }
    if (view.title.empty()) view.title = view.id.empty() ? "(unnamed check)" : view.id;
    view.verdict = check.verdict;
    view.points = check.points;
    view.max_points = check.max_points;
    if (view.record && !view.record->reason.empty()) {
      view.reason = view.record->reason;
    } else if (!view.record) {
      view.reason = no_record_reason.empty()
                        ? fmt::format("did not run (run ctest -L {})", grade.lab)
                        : no_record_reason;
    }
    views.push_back(std::move(view));
  }
  return views;
}

}  // namespace reports::detail
