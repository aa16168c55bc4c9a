#include "contract/device_buffer_note.hpp"

#include <gtest/gtest.h>

namespace contract {
namespace {

TEST(DeviceBufferNote, ReadsBackWhatItWrites) {
  const DeviceBufferPlace place{"B", 0x7f5a2c000200ULL, 4096};
  const auto note = device_buffer_note(place);
  EXPECT_EQ(note, "device buffer B at 0x7f5a2c000200, 4096 bytes");
  const auto read = parse_device_buffer_note(note);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->name, "B");
  EXPECT_EQ(read->address, 0x7f5a2c000200ULL);
  EXPECT_EQ(read->bytes, 4096u);
  EXPECT_EQ(read->element, "float");
}

TEST(DeviceBufferNote, CarriesAnElementTypeOtherThanFloat) {
  const DeviceBufferPlace place{"col_index", 0x7f5a2c000200ULL, 36, "int"};
  const auto note = device_buffer_note(place);
  EXPECT_EQ(note, "device buffer col_index at 0x7f5a2c000200, 36 bytes of int");
  const auto read = parse_device_buffer_note(note);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->name, "col_index");
  EXPECT_EQ(read->bytes, 36u);
  EXPECT_EQ(read->element, "int");
}

TEST(DeviceBufferNote, OtherNotesAndDamagedOnesAreNotPlaces) {
  for (const char* note : {"launched k<<<(1, 1, 1), (16, 16, 1)>>>", "device buffer ",
                           "device buffer B at 0x, 4 bytes", "device buffer B at 0x10, x bytes",
                           "device buffer  at 0x10, 4 bytes", "device buffer B at 0x10zz, 4 bytes",
                           "device buffer B at 0x10, 4"}) {
    EXPECT_FALSE(parse_device_buffer_note(note)) << note;
  }
}

}  // namespace
}  // namespace contract
