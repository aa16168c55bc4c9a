// Class lists shaped as the LMSs write them, for the roster and class tests.
#pragma once

#include <string>

namespace lms::testing {

// Canvas, Grades > Export: a byte-order mark, the Points Possible and Manual Posting rows, quoted
// sortable names, two students named alike, and the read-only score columns.
inline const std::string kCanvasExport =
    "\xEF\xBB\xBF"
    "Student,ID,SIS User ID,SIS Login ID,Section,Lab 5 (4241),Lab 6: Tiled matmul (4242),"
    "Current Score,Unposted Current Score,Final Score,Unposted Final Score\r\n"
    "    Points Possible,,,,,20.00,100.00,(read only),(read only),(read only),(read only)\r\n"
    ",,,,,,Manual Posting,,,,\r\n"
    "\"Smith, John\",12345,S001,jsmith,CS 401 Section 1,18.00,,90.00,90.00,90.00,90.00\r\n"
    "\"\xC3\x98"
    "deg\xC3\xA5rd, Zo\xC3\xAB\",12346,S002,zodegard,CS 401 Section 1,20.00,,100.00,"
    "100.00,100.00,100.00\r\n"
    "\"Doe, Jane\",12347,S003,jdoe,CS 401 Section 2,,,,,,\r\n"
    "\"Smith, John\",12348,S004,jsmith2,CS 401 Section 2,15.00,,75.00,75.00,75.00,75.00\r\n";

// Moodle, the assignment's Download grading worksheet.
inline const std::string kMoodleWorksheet =
    "Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
    "Last modified (submission),Last modified (grade),Feedback comments\n"
    "Participant 123456,Zo\xC3\xAB \xC3\x98"
    "deg\xC3\xA5rd,zoe@example.edu,Submitted for grading,"
    ",100.00,Yes,\"Monday, 2 December 2024, 10:15 AM\",-,\n"
    "Participant 123457,John Smith,john@example.edu,Submitted for grading,,100.00,Yes,"
    "\"Monday, 2 December 2024, 11:00 AM\",\"Tuesday, 3 December 2024, 9:00 AM\",\n"
    "Participant 123458,Jean-Luc Picard,jlp@example.edu,Submitted for grading,,100.00,Yes,"
    "\"Monday, 2 December 2024, 11:30 AM\",-,\n"
    "Participant 123459,Ann Lee,ann@example.edu,Submitted for grading,,100.00,Yes,"
    "\"Monday, 2 December 2024, 11:45 AM\",-,\n"
    "Participant 123460,Max Mustermann,max@example.edu,No submission,,100.00,Yes,-,-,\n";

// Moodle, Grade administration > Export > Plain text file: no participant numbers.
inline const std::string kMoodleGradesExport =
    "First name,Last name,ID number,Institution,Department,Email address,"
    "Assignment: Lab 6 (Real),Last downloaded from this course\n"
    "Zo\xC3\xAB,\xC3\x98"
    "deg\xC3\xA5rd,s001,,,zoe@example.edu,-,1733130000\n"
    "Ann,Lee,s002,,,ann1@example.edu,-,1733130000\n"
    "Ann,Lee,s003,,,ann2@example.edu,-,1733130000\n"
    "Jean-Luc,Picard,s004,,,jlp@example.edu,-,1733130000\n";

}  // namespace lms::testing
