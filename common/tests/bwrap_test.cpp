// common/bwrap.hpp: the one search rule for bubblewrap, and the options every run starts with.
#include "common/bwrap.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace common {
namespace {

namespace fs = std::filesystem;

class BwrapSearch : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("labs-bwrap-search-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    for (const char* folder : {"chosen", "path1", "path2", "fixed1", "fixed2", "empty"}) {
      fs::create_directories(root_ / folder);
    }
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string program(const std::string& folder, bool executable = true) {
    const fs::path file = root_ / folder / "bwrap";
    std::ofstream(file) << "#!/bin/sh\n";
    ::chmod(file.c_str(), executable ? 0755 : 0644);
    return file.string();
  }
  std::string folder(const std::string& name) { return (root_ / name).string(); }
  std::vector<std::string> fixed() {
    return {folder("fixed1") + "/bwrap", folder("fixed2") + "/bwrap"};
  }
  fs::path root_;
};

TEST_F(BwrapSearch, LabgradeBwrapComesFirst) {
  const std::string chosen = program("chosen");
  program("path1");
  program("fixed1");
  const auto found = find_bwrap_in(chosen.c_str(), folder("path1"), fixed());
  EXPECT_EQ(found.path, chosen);
  EXPECT_TRUE(found.chosen);
}

TEST_F(BwrapSearch, ALabgradeBwrapThatNamesNoProgramMeansNone) {
  program("path1");
  program("fixed1");
  const std::string not_executable = program("chosen", false);
  for (const std::string& chosen :
       {not_executable, folder("chosen"), std::string("/nonexistent")}) {
    const auto found = find_bwrap_in(chosen.c_str(), folder("path1"), fixed());
    EXPECT_EQ(found.path, "");
    EXPECT_EQ(found.why_none, "LABGRADE_BWRAP names no program (" + chosen + ")");
  }
}

TEST_F(BwrapSearch, ThenPathInItsOrderThenTheFixedList) {
  program("fixed1");
  const std::string second = program("path2");
  const std::string path = folder("empty") + ":" + folder("path1") + ":" + folder("path2");
  EXPECT_EQ(find_bwrap_in(nullptr, path, fixed()).path, second);
  EXPECT_EQ(find_bwrap_in("", path, fixed()).path, second);  // set but empty: unset
  const std::string first = program("path1");
  EXPECT_EQ(find_bwrap_in(nullptr, path, fixed()).path, first);
}

TEST_F(BwrapSearch, TheFixedListInItsOrderWhenPathHasNone) {
  const std::string second = program("fixed2");
  EXPECT_EQ(find_bwrap_in(nullptr, folder("empty"), fixed()).path, second);
  program("fixed1", false);  // not executable: passed over
  EXPECT_EQ(find_bwrap_in(nullptr, folder("empty"), fixed()).path, second);
  const std::string first = program("fixed1");
  EXPECT_EQ(find_bwrap_in(nullptr, "", fixed()).path, first);
}

TEST_F(BwrapSearch, NoneAnywhere) {
  const auto found = find_bwrap_in(nullptr, folder("empty"), fixed());
  EXPECT_EQ(found.path, "");
  EXPECT_EQ(found.why_none, "no bubblewrap on this machine");
  EXPECT_FALSE(found.chosen);
}

TEST(BwrapFixedPaths, TheUsualPlacesInOrder) {
  EXPECT_EQ(std::vector<std::string>(std::begin(kBwrapFixedPaths), std::end(kBwrapFixedPaths)),
            (std::vector<std::string>{"/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"}));
}

TEST(BwrapStart, EveryRunDiesWithItsParentInASessionOfItsOwn) {
  using V = std::vector<std::string>;
  EXPECT_EQ(bwrap_start({"bw", BwrapNamespaces::all, std::nullopt, -1}),
            (V{"bw", "--unshare-all", "--die-with-parent", "--new-session"}));
  EXPECT_EQ(bwrap_start({"bw", BwrapNamespaces::all_and_user, 65534U, 5}),
            (V{"bw", "--unshare-all", "--unshare-user", "--uid", "65534", "--gid", "65534",
               "--die-with-parent", "--new-session", "--json-status-fd", "5"}));
  EXPECT_EQ(
      bwrap_start({"bw", BwrapNamespaces::all_but_user, std::nullopt, 5}),
      (V{"bw", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
         "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--json-status-fd", "5"}));
  V command{"bw"};
  add_own_proc_and_dev(command);
  finish_bwrap_command(command, {"prog", "arg"});
  EXPECT_EQ(command, (V{"bw", "--proc", "/proc", "--dev", "/dev", "--", "prog", "arg"}));
}

TEST(BwrapStatus, StartedAndRanAreToldApart) {
  EXPECT_TRUE(bwrap_started(R"({ "child-pid": 12 })"));
  EXPECT_FALSE(bwrap_ran_program(R"({ "child-pid": 12 })"));
  EXPECT_TRUE(bwrap_ran_program(R"({ "child-pid": 12 }{ "exit-code": 0 })"));
  EXPECT_FALSE(bwrap_started(""));
  EXPECT_EQ(decode_bwrap_exit(137).signal, 9);
  EXPECT_EQ(decode_bwrap_exit(3).exit_code, 3);
}

}  // namespace
}  // namespace common
