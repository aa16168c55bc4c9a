// Batch grading's exports: pure functions from the class's outcomes to the text of each file.
#pragma once

#include "exports/gradebook_csv.hpp"
#include "exports/gradebook_html.hpp"
#include "exports/gradescope.hpp"
#include "exports/junit.hpp"
#include "exports/leaderboard.hpp"
#include "exports/lms_gradebooks.hpp"
#include "exports/outcome.hpp"
#include "exports/prairielearn.hpp"
