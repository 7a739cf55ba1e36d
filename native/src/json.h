// Minimal JSON reader/writer for the network description the TypeScript compiler hands to the addon.
// The plan is produced by our own compiler, so this parser favours clear errors over speed or leniency.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace rt {

struct Json {
  enum Kind { Null, Bool, Num, Str, Arr, Obj } kind = Null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<Json> arr;
  std::map<std::string, Json> obj;

  bool isNull() const { return kind == Null; }
  bool has(const std::string& k) const { return kind == Obj && obj.count(k) > 0 && !obj.at(k).isNull(); }
  const Json& operator[](const std::string& k) const {
    static const Json null;
    if (kind != Obj) throw std::runtime_error("json: not an object when reading '" + k + "'");
    auto it = obj.find(k);
    return it == obj.end() ? null : it->second;
  }
  const Json& at(size_t i) const {
    if (kind != Arr || i >= arr.size()) throw std::runtime_error("json: index out of range");
    return arr[i];
  }
  size_t size() const { return kind == Arr ? arr.size() : kind == Obj ? obj.size() : 0; }
  int64_t i64(const std::string& k) const {
    const Json& v = (*this)[k];
    if (v.kind != Num) throw std::runtime_error("json: '" + k + "' must be a number");
    return (int64_t)v.num;
  }
  int64_t i64(const std::string& k, int64_t dflt) const { return has(k) ? i64(k) : dflt; }
  double f64(const std::string& k, double dflt) const {
    const Json& v = (*this)[k];
    return v.kind == Num ? v.num : dflt;
  }
  std::string s(const std::string& k, const std::string& dflt = "") const {
    const Json& v = (*this)[k];
    return v.kind == Str ? v.str : dflt;
  }
  std::vector<int64_t> ints(const std::string& k) const {
    const Json& v = (*this)[k];
    std::vector<int64_t> out;
    if (v.kind != Arr) return out;
    for (auto& x : v.arr) out.push_back((int64_t)x.num);
    return out;
  }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& t) : s_(t) {}
  Json parse() {
    Json v = value();
    ws();
    if (p_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  const std::string& s_;
  size_t p_ = 0;
  [[noreturn]] void fail(const char* why) {
    throw std::runtime_error(std::string("network json: ") + why + " at offset " + std::to_string(p_));
  }
  void ws() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\n' || s_[p_] == '\t' || s_[p_] == '\r')) p_++;
  }
  bool lit(const char* w) {
    size_t n = strlen(w);
    if (s_.compare(p_, n, w) == 0) { p_ += n; return true; }
    return false;
  }
  Json value() {
    ws();
    if (p_ >= s_.size()) fail("unexpected end");
    char c = s_[p_];
    Json v;
    if (c == '{') {
      v.kind = Json::Obj; p_++; ws();
      if (s_[p_] == '}') { p_++; return v; }
      for (;;) {
        ws();
        if (s_[p_] != '"') fail("expected key");
        std::string k = string();
        ws();
        if (s_[p_] != ':') fail("expected ':'");
        p_++;
        v.obj[k] = value();
        ws();
        if (s_[p_] == ',') { p_++; continue; }
        if (s_[p_] == '}') { p_++; return v; }
        fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v.kind = Json::Arr; p_++; ws();
      if (s_[p_] == ']') { p_++; return v; }
      for (;;) {
        v.arr.push_back(value());
        ws();
        if (s_[p_] == ',') { p_++; continue; }
        if (s_[p_] == ']') { p_++; return v; }
        fail("expected ',' or ']'");
      }
    }
    if (c == '"') { v.kind = Json::Str; v.str = string(); return v; }
    if (lit("true")) { v.kind = Json::Bool; v.b = true; return v; }
    if (lit("false")) { v.kind = Json::Bool; v.b = false; return v; }
    if (lit("null")) return v;
    char* end = nullptr;
    v.num = strtod(s_.c_str() + p_, &end);
    if (end == s_.c_str() + p_) fail("bad value");
    p_ = end - s_.c_str();
    v.kind = Json::Num;
    return v;
  }
  std::string string() {
    std::string out;
    p_++;  // opening quote
    while (p_ < s_.size() && s_[p_] != '"') {
      char c = s_[p_++];
      if (c == '\\') {
        char e = s_[p_++];
        switch (e) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'u': {
            unsigned code = (unsigned)strtoul(s_.substr(p_, 4).c_str(), nullptr, 16);
            p_ += 4;
            if (code < 0x80) out += (char)code;
            else if (code < 0x800) { out += (char)(0xC0 | (code >> 6)); out += (char)(0x80 | (code & 0x3F)); }
            else { out += (char)(0xE0 | (code >> 12)); out += (char)(0x80 | ((code >> 6) & 0x3F)); out += (char)(0x80 | (code & 0x3F)); }
            break;
          }
          default: out += e;
        }
      } else {
        out += c;
      }
    }
    if (p_ >= s_.size()) fail("unterminated string");
    p_++;
    return out;
  }
};

inline Json parseJson(const std::string& s) { return JsonParser(s).parse(); }

/** Escapes a string for a JSON literal. */
inline std::string jsonStr(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') { o += '\\'; o += c; }
    else if ((unsigned char)c < 0x20) { char b[8]; snprintf(b, sizeof b, "\\u%04x", c); o += b; }
    else o += c;
  }
  return o + "\"";
}

}  // namespace rt
