// Which assignment column canvas.csv writes: --lms-assignment, or the Canvas export's column that
// names the lab, or its only assignment column.
#pragma once

#include <optional>
#include <string>

#include "exports/lms_gradebooks.hpp"
#include "lms/roster.hpp"

namespace batch {

// For a Canvas export: the column named by `option` ("Lab 6 (4242)", "4242" or "Lab 6"), or with
// no option the one whose title names `lab` ("Lab 6: Tiled matmul" for lab6) or the only one.
// Throws lms::RosterError when none or several fit, listing the export's columns; an option of
// the shape "Title (id)" that is no column of the export is taken as written.
// True for a column of the shape "Title (assignment id)", which Canvas finds by the id.
bool has_assignment_id(const std::string& column);

exports::CanvasTarget canvas_column(const lms::Roster& roster, const std::string& option,
                                    const std::string& lab);

}  // namespace batch
