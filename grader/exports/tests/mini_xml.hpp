// A small, strict XML 1.0 reader for the tests: enough to prove JUnit output well-formed (one
// root, matching tags, quoted attributes without '<', only the five named entities and character
// references, no control characters, valid UTF-8) and to read it back. Throws on anything else.
#pragma once

#include <cctype>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "exports/text.hpp"

namespace exports::testing {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<std::unique_ptr<XmlElement>> children;
  std::string text;  // all character data directly inside, decoded

  std::vector<const XmlElement*> all(std::string_view child) const {
    std::vector<const XmlElement*> out;
    for (const auto& c : children)
      if (c->name == child) out.push_back(c.get());
    return out;
  }
};

class MiniXml {
 public:
  static std::unique_ptr<XmlElement> parse(std::string_view doc) {
    if (text::clean(doc) != doc) throw std::runtime_error("control characters or invalid UTF-8");
    MiniXml p(doc);
    p.skip_prolog();
    auto root = p.element();
    p.skip_space();
    if (p.pos_ != doc.size()) throw std::runtime_error("content after the root element");
    return root;
  }

 private:
  explicit MiniXml(std::string_view doc) : doc_(doc) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(what + " at byte " + std::to_string(pos_));
  }
  bool at(std::string_view s) const { return doc_.substr(pos_).starts_with(s); }
  void expect(std::string_view s) {
    if (!at(s)) fail("expected '" + std::string(s) + "'");
    pos_ += s.size();
  }
  void skip_space() {
    while (pos_ < doc_.size() &&
           std::string_view(" \t\r\n").find(doc_[pos_]) != std::string_view::npos)
      ++pos_;
  }
  void skip_prolog() {
    if (at("<?xml")) {
      const auto end = doc_.find("?>", pos_);
      if (end == std::string_view::npos) fail("unterminated declaration");
      pos_ = end + 2;
    }
    skip_space();
  }
  static bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ||
           c == ':';
  }
  std::string name() {
    const auto start = pos_;
    while (pos_ < doc_.size() && name_char(doc_[pos_])) ++pos_;
    if (pos_ == start) fail("expected a name");
    return std::string(doc_.substr(start, pos_ - start));
  }
  // Character data up to `stop`, with references decoded; '<' (and '>' of "]]>") refused.
  std::string chars(char stop) {
    std::string out;
    while (pos_ < doc_.size() && doc_[pos_] != stop) {
      const char c = doc_[pos_];
      if (c == '<') fail("'<' in character data");
      if (c == '&') {
        const auto end = doc_.find(';', pos_);
        if (end == std::string_view::npos) fail("unterminated reference");
        const auto ref = doc_.substr(pos_ + 1, end - pos_ - 1);
        static const std::map<std::string_view, char> named{
            {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
        if (const auto it = named.find(ref); it != named.end()) {
          out += it->second;
        } else if (ref.starts_with("#") && ref.size() > 1) {
          const bool hex = ref[1] == 'x';
          const long value =
              std::stol(std::string(ref.substr(hex ? 2 : 1)), nullptr, hex ? 16 : 10);
          if (value != 9 && value != 10 && value != 13 && value < 0x20)
            fail("bad character reference");
          if (value > 0x7F) fail("test reader decodes ASCII references only");
          out += static_cast<char>(value);
        } else {
          fail("unknown entity &" + std::string(ref) + ";");
        }
        pos_ = end + 1;
        continue;
      }
      if (stop == '<' && at("]]>")) fail("']]>' in character data");
      out += c;
      ++pos_;
    }
    return out;
  }
  std::unique_ptr<XmlElement> element() {
    expect("<");
    auto e = std::make_unique<XmlElement>();
    e->name = name();
    for (;;) {
      skip_space();
      if (at("/>")) {
        pos_ += 2;
        return e;
      }
      if (at(">")) {
        ++pos_;
        break;
      }
      const auto key = name();
      skip_space();
      expect("=");
      skip_space();
      if (pos_ >= doc_.size() || (doc_[pos_] != '"' && doc_[pos_] != '\'')) fail("unquoted value");
      const char quote = doc_[pos_++];
      auto value = chars(quote);
      expect(std::string(1, quote));
      if (!e->attributes.emplace(key, std::move(value)).second) fail("duplicate attribute " + key);
    }
    for (;;) {
      e->text += chars('<');
      if (pos_ >= doc_.size()) fail("unclosed element " + e->name);
      if (at("</")) {
        pos_ += 2;
        if (name() != e->name) fail("mismatched end tag for " + e->name);
        skip_space();
        expect(">");
        return e;
      }
      if (at("<!--") || at("<![CDATA[") || at("<?")) fail("unexpected markup");
      e->children.push_back(element());
    }
  }

  std::string_view doc_;
  std::size_t pos_ = 0;
};

}  // namespace exports::testing
