// Slugs: the names used for a student's files and URLs (unpack folder, report, links), made from
// untrusted display names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace intake {

// [a-z0-9-] only (a subset of [a-z0-9_-]), never empty, no leading or trailing '-', at most 48
// characters.
// Latin letters with accents, ligatures, Vietnamese and Russian Cyrillic are transliterated
// ("Zoë Ødegård" -> "zoe-odegard"); apostrophes vanish ("O'Brien" -> "obrien"); anything else
// separates words. A name with nothing left (all CJK, say) gets "student-" and a hash of the
// name, so different such names still get different slugs.
std::string slugify(std::string_view student);

// One slug per student, in the same order, all distinct. Students whose slugs would collide keep
// the first in the given order as is; the others get the lowest free -2, -3, ... suffix, never
// one that another student's own slug already is (so "alice 2" keeps "alice-2").
std::vector<std::string> unique_slugs(const std::vector<std::string>& students);

}  // namespace intake
