#include "base/bounded_json.h"

#include <string>
#include <unordered_map>
#include <utility>

namespace bravebot {

bool JsonBoundsCheck::Value(bool opens, bool object) {
  if (!open_.empty() && !open_.back().object) {
    ++open_.back().count;
    if (open_.size() == 1 && open_.back().count > bounds_.max_batch) {
      return Refuse(JsonRefusal::kBatchTooWide);
    }
  }
  if (!opens) return true;
  if (open_.size() >= bounds_.max_depth) return Refuse(JsonRefusal::kTooDeep);
  open_.push_back({object, 0});
  return true;
}

bool JsonBoundsCheck::Key() {
  if (++open_.back().count > bounds_.max_members) return Refuse(JsonRefusal::kTooWide);
  return true;
}

namespace {

// Builds the document from nlohmann::json's SAX events, within the bounds.
template <typename BasicJson>
class BoundedReader {
 public:
  using number_integer_t = typename BasicJson::number_integer_t;
  using number_unsigned_t = typename BasicJson::number_unsigned_t;
  using number_float_t = typename BasicJson::number_float_t;
  using string_t = typename BasicJson::string_t;
  using binary_t = typename BasicJson::binary_t;
  using value_t = typename BasicJson::value_t;

  BoundedReader(BasicJson& root, JsonBounds bounds) : root_(root), check_(bounds) {}

  bool null() { return Scalar(BasicJson(nullptr)); }
  bool boolean(bool value) { return Scalar(BasicJson(value)); }
  bool number_integer(number_integer_t value) { return Scalar(BasicJson(value)); }
  bool number_unsigned(number_unsigned_t value) { return Scalar(BasicJson(value)); }
  bool number_float(number_float_t value, const string_t&) { return Scalar(BasicJson(value)); }
  bool string(string_t& value) { return Scalar(BasicJson(std::move(value))); }
  bool binary(binary_t& value) { return Scalar(BasicJson::binary(std::move(value))); }
  bool start_object(std::size_t) { return Open(value_t::object); }
  bool start_array(std::size_t) { return Open(value_t::array); }
  bool key(string_t& key) {
    if (!check_.Key()) return false;
    slot_ = Slot(open_.back(), std::move(key));
    return true;
  }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  template <typename Exception>
  bool parse_error(std::size_t, const std::string&, const Exception&) {
    not_json_ = true;
    return false;
  }

  JsonRefusal refusal() const { return not_json_ ? JsonRefusal::kNotJson : check_.refusal(); }

 private:
  // An array or object being read, and for a wide object its keys' places.
  struct Container {
    BasicJson* value;
    std::unordered_map<string_t, std::size_t> places;
  };
  // Up to this many members, a key is looked for among them one by one,
  // which allocates nothing; past it, in `places`.
  static constexpr std::size_t kFew = 16;

  bool Scalar(BasicJson&& value) {
    if (!check_.Value(false)) return false;
    Place(std::move(value));
    return true;
  }

  bool Open(value_t type) {
    if (!check_.Value(true, type == value_t::object)) return false;
    open_.push_back({Place(BasicJson(type)), {}});
    return true;
  }

  bool Close() {
    check_.Close();
    open_.pop_back();
    return true;
  }

  // Where the value just read goes: the root, the next element of the
  // innermost array, or the member whose key came last. The pointers held
  // stay valid: only the innermost array or object grows.
  BasicJson* Place(BasicJson&& value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    BasicJson& parent = *open_.back().value;
    if (parent.is_array()) {
      auto& elements = *parent.template get_ptr<typename BasicJson::array_t*>();
      elements.push_back(std::move(value));
      return &elements.back();
    }
    *slot_ = std::move(value);
    return slot_;
  }

  // The value of `key` in `object`: a new member, or the one of a key given
  // before (its first place, its value replaced, as nlohmann's reader does).
  BasicJson* Slot(Container& object, string_t&& key) {
    auto& members = *object.value->template get_ptr<typename BasicJson::object_t*>();
    if constexpr (requires { typename BasicJson::object_t::Container; }) {
      // ordered_json: a vector of members, kept in order. Its own insert
      // looks the key up among all before it; this, in a hash table.
      typename BasicJson::object_t::Container& in_order = members;
      if (in_order.size() < kFew) {
        for (auto& member : in_order) {
          if (member.first == key) return &member.second;
        }
      } else {
        if (object.places.empty()) {
          for (std::size_t i = 0; i < in_order.size(); ++i)
            object.places.emplace(in_order[i].first, i);
        }
        auto [place, added] = object.places.try_emplace(key, in_order.size());
        if (!added) return &in_order[place->second].second;
      }
      in_order.emplace_back(std::move(key), nullptr);
      return &in_order.back().second;
    } else {
      return &members[std::move(key)];  // a std::map: its own lookup is logarithmic
    }
  }

  BasicJson& root_;
  JsonBoundsCheck check_;
  std::vector<Container> open_;
  BasicJson* slot_ = nullptr;
  bool not_json_ = false;
};

}  // namespace

template <typename BasicJson>
JsonRefusal ReadBoundedJson(std::string_view text, BasicJson& document, JsonBounds bounds) {
  BoundedReader<BasicJson> reader(document, bounds);
  if (BasicJson::sax_parse(text, &reader)) return JsonRefusal::kNone;
  document = BasicJson(BasicJson::value_t::discarded);
  const JsonRefusal refusal = reader.refusal();
  return refusal == JsonRefusal::kNone ? JsonRefusal::kNotJson : refusal;
}

template JsonRefusal ReadBoundedJson(std::string_view, nlohmann::json&, JsonBounds);
template JsonRefusal ReadBoundedJson(std::string_view, nlohmann::ordered_json&, JsonBounds);

}  // namespace bravebot
