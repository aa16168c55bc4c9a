#include "exports/junit.hpp"

#include <gtest/gtest.h>

#include "class_fixture.hpp"
#include "exports/text.hpp"
#include "mini_xml.hpp"

namespace exports {
namespace {

class Junit : public ::testing::Test {
 protected:
  contract::LabSpec spec = testing::make_spec();
  std::vector<StudentOutcome> outcomes = testing::make_class(spec);
  std::string xml = junit_xml(spec, outcomes);
};

TEST_F(Junit, IsWellFormedWithOneSuitePerStudent) {
  std::unique_ptr<testing::XmlElement> root;
  ASSERT_NO_THROW(root = testing::MiniXml::parse(xml)) << xml;
  EXPECT_EQ(root->name, "testsuites");
  EXPECT_EQ(root->attributes.at("tests"), "24");
  EXPECT_EQ(root->attributes.at("name"), "lab9: Tiled <b>matmul</b> & friends");
  const auto suites = root->all("testsuite");
  ASSERT_EQ(suites.size(), outcomes.size());
  for (std::size_t i = 0; i < suites.size(); ++i) {
    EXPECT_EQ(suites[i]->attributes.at("name"), text::clean(outcomes[i].student, false));
    const auto cases = suites[i]->all("testcase");
    ASSERT_EQ(cases.size(), 3u);
    for (std::size_t k = 0; k < cases.size(); ++k) {
      EXPECT_EQ(cases[k]->attributes.at("classname"), "lab9");
      EXPECT_EQ(cases[k]->attributes.at("name"), spec.checks[k].id);
    }
    EXPECT_EQ(suites[i]->all("system-out").size(), 1u);
  }
  EXPECT_EQ(suites[1]->attributes.at("name"), testing::kScriptName);
  EXPECT_EQ(suites[2]->attributes.at("name"), testing::kFormulaName);
  EXPECT_EQ(suites[3]->attributes.at("name"), "Zo\u00eb \"Q\", Jr. second line");
  EXPECT_EQ(suites[4]->attributes.at("name"), "badbytes\uFFFD end");
  EXPECT_EQ(suites[7]->attributes.at("name"), "\u674e\u96f7 \U0001F680");
}

TEST_F(Junit, VerdictsBecomeFailuresAndSkips) {
  const auto root = testing::MiniXml::parse(xml);
  const auto suites = root->all("testsuite");
  // alice: all passed
  for (const auto* c : suites[0]->all("testcase")) EXPECT_TRUE(c->children.empty());
  EXPECT_EQ(suites[0]->attributes.at("failures"), "0");
  // <script> student: fail, error, inconclusive
  const auto cases = suites[1]->all("testcase");
  const auto failure = cases[0]->all("failure");
  ASSERT_EQ(failure.size(), 1u);
  EXPECT_EQ(failure[0]->attributes.at("type"), "fail");
  EXPECT_EQ(failure[0]->attributes.at("message"),
            "wrong at (3, 4): <img src=x onerror=alert(1)> & \"more\"");
  EXPECT_NE(failure[0]->text.find("fail: 5 of 10 points"), std::string::npos);
  EXPECT_EQ(cases[1]->all("failure").at(0)->attributes.at("type"), "error");
  EXPECT_EQ(cases[2]->all("skipped").at(0)->attributes.at("message"), "inconclusive: GPU busy");
  EXPECT_EQ(suites[1]->attributes.at("failures"), "2");
  EXPECT_EQ(suites[1]->attributes.at("skipped"), "1");
  // Quoted student: pass, skipped, not run
  const auto quoted = suites[3]->all("testcase");
  EXPECT_EQ(quoted[1]->all("skipped").at(0)->attributes.at("message"), "skipped: no GPU");
  EXPECT_EQ(quoted[2]->all("failure").at(0)->attributes.at("type"), "not run");
}

// A speed beyond the GPU's ceiling is a failure (JUnit's skip is for checks that could not
// judge), typed "implausible", with the record's reason and the figure against the ceiling.
TEST(JunitImplausible, AnImplausibleSpeedIsAFailureWithItsReason) {
  const auto spec = testing::make_spec();
  const auto root = testing::MiniXml::parse(junit_xml(spec, testing::make_implausible_class(spec)));
  const auto suites = root->all("testsuite");
  ASSERT_EQ(suites.size(), 2u);
  EXPECT_EQ(suites[1]->attributes.at("failures"), "1");
  EXPECT_EQ(suites[1]->attributes.at("skipped"), "0");
  const auto failure = suites[1]->all("testcase").at(2)->all("failure");
  ASSERT_EQ(failure.size(), 1u);
  EXPECT_EQ(failure[0]->attributes.at("type"), "implausible");
  EXPECT_EQ(failure[0]->attributes.at("message"), testing::kImplausibleReason);
  EXPECT_NE(failure[0]->text.find("implausible: 0 of 5 points"), std::string::npos)
      << failure[0]->text;
  EXPECT_EQ(root->attributes.at("failures"), "1");

  // A record without a reason: the figure against the ceiling, in the report's words.
  const auto quiet = testing::MiniXml::parse(
      junit_xml(spec, {testing::graded(spec, "quiet", {testing::implausible_speed("")})}));
  const auto text =
      quiet->all("testsuite").at(0)->all("testcase").at(2)->all("failure").at(0)->text;
  EXPECT_NE(text.find("implausible: measured 90.1 TFLOP/s, beyond this GPU's FP32 peak"),
            std::string::npos)
      << text;
}

TEST_F(Junit, UngradedStudentsFailEveryCheckWithTheirStatus) {
  const auto root = testing::MiniXml::parse(xml);
  const auto suite = root->all("testsuite").at(2);
  EXPECT_EQ(suite->attributes.at("failures"), "3");
  for (const auto* c : suite->all("testcase")) {
    const auto failures = c->all("failure");
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_EQ(failures[0]->attributes.at("message"), "not graded: compile error");
    EXPECT_EQ(failures[0]->attributes.at("type"), "not run");
  }
  bool status_found = false;
  for (const auto* p : suite->all("properties").at(0)->all("property")) {
    if (p->attributes.at("name") == "status") {
      EXPECT_EQ(p->attributes.at("value"), "compile error");
      status_found = true;
    }
  }
  EXPECT_TRUE(status_found);
  const std::string& out = suite->all("system-out").at(0)->text;
  EXPECT_NE(out.find("</pre><script>x()</script> ]]> --> done"), std::string::npos) << out;
  EXPECT_NE(
      root->all("testsuite").at(4)->all("system-out").at(0)->text.find("killed after 120 s tail"),
      std::string::npos);
}

TEST_F(Junit, NoControlCharactersOrMarkupLeak) {
  EXPECT_EQ(xml.find("<script"), std::string::npos);
  EXPECT_EQ(xml.find("<img"), std::string::npos);
  EXPECT_EQ(xml.find("]]>"), std::string::npos);
  EXPECT_EQ(text::clean(xml), xml);
}

TEST(JunitEmpty, NoStudents) {
  const auto spec = testing::make_spec();
  const auto root = testing::MiniXml::parse(junit_xml(spec, {}));
  EXPECT_EQ(root->attributes.at("tests"), "0");
  EXPECT_TRUE(root->children.empty());
}

TEST(MiniXml, RejectsWhatIsNotWellFormed) {
  EXPECT_THROW(testing::MiniXml::parse("<a><b></a></b>"), std::runtime_error);
  EXPECT_THROW(testing::MiniXml::parse("<a x=\"<\"/>"), std::runtime_error);
  EXPECT_THROW(testing::MiniXml::parse("<a>&nbsp;</a>"), std::runtime_error);
  EXPECT_THROW(testing::MiniXml::parse("<a>\x01</a>"), std::runtime_error);
  EXPECT_THROW(testing::MiniXml::parse("<a/><b/>"), std::runtime_error);
  EXPECT_THROW(testing::MiniXml::parse("<a x=1/>"), std::runtime_error);
  EXPECT_NO_THROW(testing::MiniXml::parse("<?xml version=\"1.0\"?>\n<a x='1'>t&amp;<b/></a>\n"));
}

}  // namespace
}  // namespace exports
