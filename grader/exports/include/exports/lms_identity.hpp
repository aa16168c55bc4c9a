// Who a student is to their LMS, from the roster a batch was given (labgrade batch --roster):
// what canvas.csv and moodle.csv key a grade by. Roster fields are the instructor's file, but the
// exports escape them like any other text.
#pragma once

#include <string>

namespace exports {

struct LmsIdentity {
  std::string name;            // as the roster writes it: Canvas "Smith, John", Moodle "John Smith"
  std::string canvas_user_id;  // Canvas's "ID": empty when the student is not known to Canvas
  std::string sis_user_id;
  std::string sis_login_id;
  std::string section;
  // The Moodle grading worksheet's Identifier ("Participant 123456"), as the worksheet wrote it:
  // Moodle reads the number after its own words, which depend on the site's language. Empty when
  // the roster was not a worksheet.
  std::string moodle_identifier;
  std::string email;
  std::string moodle_grade_modified;  // the worksheet's "Last modified (grade)", unchanged
};

}  // namespace exports
