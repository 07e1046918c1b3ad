#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <iterator>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#if __cplusplus >= 201703L
#include <string_view>
#endif
#if __cplusplus >= 202002L
#include <ranges>
#endif

#ifdef __GNUC__
#pragma GCC diagnostic ignored "-Wmissing-declarations"
#ifdef __clang__
#pragma clang diagnostic ignored "-Wdollar-in-identifier-extension"
#endif // __clang__
#endif // __GNUC__

namespace rust {
inline namespace cxxbridge1 {
// #include "rust/cxx.h"

#ifndef CXXBRIDGE1_PANIC
#define CXXBRIDGE1_PANIC
template <typename Exception>
void panic [[noreturn]] (const char *msg);
#endif // CXXBRIDGE1_PANIC

struct unsafe_bitcopy_t;

namespace {
template <typename T>
class impl;
} // namespace

template <typename T>
::std::size_t size_of();
template <typename T>
::std::size_t align_of();

#ifndef CXXBRIDGE1_RUST_STRING
#define CXXBRIDGE1_RUST_STRING
class String final {
public:
  String() noexcept;
  String(const String &) noexcept;
  String(String &&) noexcept;
  ~String() noexcept;

  String(const std::string &);
  String(const char *);
  String(const char *, std::size_t);
  String(const char16_t *);
  String(const char16_t *, std::size_t);
#ifdef __cpp_char8_t
  String(const char8_t *s);
  String(const char8_t *s, std::size_t len);
#endif

  static String lossy(const std::string &) noexcept;
  static String lossy(const char *) noexcept;
  static String lossy(const char *, std::size_t) noexcept;
  static String lossy(const char16_t *) noexcept;
  static String lossy(const char16_t *, std::size_t) noexcept;

  String &operator=(const String &) & noexcept;
  String &operator=(String &&) & noexcept;

  explicit operator std::string() const;

  const char *data() const noexcept;
  std::size_t size() const noexcept;
  std::size_t length() const noexcept;
  bool empty() const noexcept;

  const char *c_str() noexcept;

  std::size_t capacity() const noexcept;
  void reserve(size_t new_cap) noexcept;

  using iterator = char *;
  iterator begin() noexcept;
  iterator end() noexcept;

  using const_iterator = const char *;
  const_iterator begin() const noexcept;
  const_iterator end() const noexcept;
  const_iterator cbegin() const noexcept;
  const_iterator cend() const noexcept;

  bool operator==(const String &) const noexcept;
  bool operator!=(const String &) const noexcept;
  bool operator<(const String &) const noexcept;
  bool operator<=(const String &) const noexcept;
  bool operator>(const String &) const noexcept;
  bool operator>=(const String &) const noexcept;

  void swap(String &) noexcept;

  String(unsafe_bitcopy_t, const String &) noexcept;

private:
  struct lossy_t;
  String(lossy_t, const char *, std::size_t) noexcept;
  String(lossy_t, const char16_t *, std::size_t) noexcept;
  friend void swap(String &lhs, String &rhs) noexcept { lhs.swap(rhs); }

  std::array<std::uintptr_t, 3> repr;
};
#endif // CXXBRIDGE1_RUST_STRING

#ifndef CXXBRIDGE1_RUST_STR
#define CXXBRIDGE1_RUST_STR
class Str final {
public:
  Str() noexcept;
  Str(const String &) noexcept;
  Str(const std::string &);
  Str(const char *);
  Str(const char *, std::size_t);

  Str &operator=(const Str &) & noexcept = default;

  explicit operator std::string() const;
#if __cplusplus >= 201703L
  explicit operator std::string_view() const;
#endif

  const char *data() const noexcept;
  std::size_t size() const noexcept;
  std::size_t length() const noexcept;
  bool empty() const noexcept;

  Str(const Str &) noexcept = default;
  ~Str() noexcept = default;

  using iterator = const char *;
  using const_iterator = const char *;
  const_iterator begin() const noexcept;
  const_iterator end() const noexcept;
  const_iterator cbegin() const noexcept;
  const_iterator cend() const noexcept;

  bool operator==(const Str &) const noexcept;
  bool operator!=(const Str &) const noexcept;
  bool operator<(const Str &) const noexcept;
  bool operator<=(const Str &) const noexcept;
  bool operator>(const Str &) const noexcept;
  bool operator>=(const Str &) const noexcept;

  void swap(Str &) noexcept;

private:
  class uninit;
  Str(uninit) noexcept;
  friend impl<Str>;

  std::array<std::uintptr_t, 2> repr;
};
#endif // CXXBRIDGE1_RUST_STR

#ifndef CXXBRIDGE1_RUST_SLICE
#define CXXBRIDGE1_RUST_SLICE
namespace detail {
template <bool>
struct copy_assignable_if {};

template <>
struct copy_assignable_if<false> {
  copy_assignable_if() noexcept = default;
  copy_assignable_if(const copy_assignable_if &) noexcept = default;
  copy_assignable_if &operator=(const copy_assignable_if &) & noexcept = delete;
  copy_assignable_if &operator=(copy_assignable_if &&) & noexcept = default;
};
} // namespace detail

template <typename T>
class Slice final
    : private detail::copy_assignable_if<std::is_const<T>::value> {
public:
  using value_type = T;

  Slice() noexcept;
  Slice(T *, std::size_t count) noexcept;

  template <typename C>
  explicit Slice(C &c) : Slice(c.data(), c.size()) {}

  Slice &operator=(const Slice<T> &) & noexcept = default;
  Slice &operator=(Slice<T> &&) & noexcept = default;

  T *data() const noexcept;
  std::size_t size() const noexcept;
  std::size_t length() const noexcept;
  bool empty() const noexcept;

  T &operator[](std::size_t n) const noexcept;
  T &at(std::size_t n) const;
  T &front() const noexcept;
  T &back() const noexcept;

  Slice(const Slice<T> &) noexcept = default;
  ~Slice() noexcept = default;

  class iterator;
  iterator begin() const noexcept;
  iterator end() const noexcept;

  void swap(Slice &) noexcept;

private:
  class uninit;
  Slice(uninit) noexcept;
  friend impl<Slice>;
  friend void sliceInit(void *, const void *, std::size_t) noexcept;
  friend void *slicePtr(const void *) noexcept;
  friend std::size_t sliceLen(const void *) noexcept;

  std::array<std::uintptr_t, 2> repr;
};

#ifdef __cpp_deduction_guides
template <typename C>
explicit Slice(C &c)
    -> Slice<std::remove_reference_t<decltype(*std::declval<C>().data())>>;
#endif // __cpp_deduction_guides

template <typename T>
class Slice<T>::iterator final {
public:
#if __cplusplus >= 202002L
  using iterator_category = std::contiguous_iterator_tag;
#else
  using iterator_category = std::random_access_iterator_tag;
#endif
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = typename std::add_pointer<T>::type;
  using reference = typename std::add_lvalue_reference<T>::type;

  reference operator*() const noexcept;
  pointer operator->() const noexcept;
  reference operator[](difference_type) const noexcept;

  iterator &operator++() noexcept;
  iterator operator++(int) noexcept;
  iterator &operator--() noexcept;
  iterator operator--(int) noexcept;

  iterator &operator+=(difference_type) noexcept;
  iterator &operator-=(difference_type) noexcept;
  iterator operator+(difference_type) const noexcept;
  friend inline iterator operator+(difference_type lhs, iterator rhs) noexcept {
    return rhs + lhs;
  }
  iterator operator-(difference_type) const noexcept;
  difference_type operator-(const iterator &) const noexcept;

  bool operator==(const iterator &) const noexcept;
  bool operator!=(const iterator &) const noexcept;
  bool operator<(const iterator &) const noexcept;
  bool operator<=(const iterator &) const noexcept;
  bool operator>(const iterator &) const noexcept;
  bool operator>=(const iterator &) const noexcept;

private:
  friend class Slice;
  void *pos;
  std::size_t stride;
};

#if __cplusplus >= 202002L
static_assert(std::ranges::contiguous_range<rust::Slice<const uint8_t>>);
static_assert(std::contiguous_iterator<rust::Slice<const uint8_t>::iterator>);
#endif

template <typename T>
Slice<T>::Slice() noexcept {
  sliceInit(this, reinterpret_cast<void *>(align_of<T>()), 0);
}

template <typename T>
Slice<T>::Slice(T *s, std::size_t count) noexcept {
  assert(s != nullptr || count == 0);
  sliceInit(this,
            s == nullptr && count == 0
                ? reinterpret_cast<void *>(align_of<T>())
                : const_cast<typename std::remove_const<T>::type *>(s),
            count);
}

template <typename T>
T *Slice<T>::data() const noexcept {
  return reinterpret_cast<T *>(slicePtr(this));
}

template <typename T>
std::size_t Slice<T>::size() const noexcept {
  return sliceLen(this);
}

template <typename T>
std::size_t Slice<T>::length() const noexcept {
  return this->size();
}

template <typename T>
bool Slice<T>::empty() const noexcept {
  return this->size() == 0;
}

template <typename T>
T &Slice<T>::operator[](std::size_t n) const noexcept {
  assert(n < this->size());
  auto ptr = static_cast<char *>(slicePtr(this)) + size_of<T>() * n;
  return *reinterpret_cast<T *>(ptr);
}

template <typename T>
T &Slice<T>::at(std::size_t n) const {
  if (n >= this->size()) {
    panic<std::out_of_range>("rust::Slice index out of range");
  }
  return (*this)[n];
}

template <typename T>
T &Slice<T>::front() const noexcept {
  assert(!this->empty());
  return (*this)[0];
}

template <typename T>
T &Slice<T>::back() const noexcept {
  assert(!this->empty());
  return (*this)[this->size() - 1];
}

template <typename T>
typename Slice<T>::iterator::reference
Slice<T>::iterator::operator*() const noexcept {
  return *static_cast<T *>(this->pos);
}

template <typename T>
typename Slice<T>::iterator::pointer
Slice<T>::iterator::operator->() const noexcept {
  return static_cast<T *>(this->pos);
}

template <typename T>
typename Slice<T>::iterator::reference Slice<T>::iterator::operator[](
    typename Slice<T>::iterator::difference_type n) const noexcept {
  auto ptr = static_cast<char *>(this->pos) + this->stride * n;
  return *reinterpret_cast<T *>(ptr);
}

template <typename T>
typename Slice<T>::iterator &Slice<T>::iterator::operator++() noexcept {
  this->pos = static_cast<char *>(this->pos) + this->stride;
  return *this;
}

template <typename T>
typename Slice<T>::iterator Slice<T>::iterator::operator++(int) noexcept {
  auto ret = iterator(*this);
  this->pos = static_cast<char *>(this->pos) + this->stride;
  return ret;
}

template <typename T>
typename Slice<T>::iterator &Slice<T>::iterator::operator--() noexcept {
  this->pos = static_cast<char *>(this->pos) - this->stride;
  return *this;
}

template <typename T>
typename Slice<T>::iterator Slice<T>::iterator::operator--(int) noexcept {
  auto ret = iterator(*this);
  this->pos = static_cast<char *>(this->pos) - this->stride;
  return ret;
}

template <typename T>
typename Slice<T>::iterator &Slice<T>::iterator::operator+=(
    typename Slice<T>::iterator::difference_type n) noexcept {
  this->pos = static_cast<char *>(this->pos) + this->stride * n;
  return *this;
}

template <typename T>
typename Slice<T>::iterator &Slice<T>::iterator::operator-=(
    typename Slice<T>::iterator::difference_type n) noexcept {
  this->pos = static_cast<char *>(this->pos) - this->stride * n;
  return *this;
}

template <typename T>
typename Slice<T>::iterator Slice<T>::iterator::operator+(
    typename Slice<T>::iterator::difference_type n) const noexcept {
  auto ret = iterator(*this);
  ret.pos = static_cast<char *>(this->pos) + this->stride * n;
  return ret;
}

template <typename T>
typename Slice<T>::iterator Slice<T>::iterator::operator-(
    typename Slice<T>::iterator::difference_type n) const noexcept {
  auto ret = iterator(*this);
  ret.pos = static_cast<char *>(this->pos) - this->stride * n;
  return ret;
}

template <typename T>
typename Slice<T>::iterator::difference_type
Slice<T>::iterator::operator-(const iterator &other) const noexcept {
  auto diff = std::distance(static_cast<char *>(other.pos),
                            static_cast<char *>(this->pos));
  return diff / static_cast<typename Slice<T>::iterator::difference_type>(
                    this->stride);
}

template <typename T>
bool Slice<T>::iterator::operator==(const iterator &other) const noexcept {
  return this->pos == other.pos;
}

template <typename T>
bool Slice<T>::iterator::operator!=(const iterator &other) const noexcept {
  return this->pos != other.pos;
}

template <typename T>
bool Slice<T>::iterator::operator<(const iterator &other) const noexcept {
  return this->pos < other.pos;
}

template <typename T>
bool Slice<T>::iterator::operator<=(const iterator &other) const noexcept {
  return this->pos <= other.pos;
}

template <typename T>
bool Slice<T>::iterator::operator>(const iterator &other) const noexcept {
  return this->pos > other.pos;
}

template <typename T>
bool Slice<T>::iterator::operator>=(const iterator &other) const noexcept {
  return this->pos >= other.pos;
}

template <typename T>
typename Slice<T>::iterator Slice<T>::begin() const noexcept {
  iterator it;
  it.pos = slicePtr(this);
  it.stride = size_of<T>();
  return it;
}

template <typename T>
typename Slice<T>::iterator Slice<T>::end() const noexcept {
  iterator it = this->begin();
  it.pos = static_cast<char *>(it.pos) + it.stride * this->size();
  return it;
}

template <typename T>
void Slice<T>::swap(Slice &rhs) noexcept {
  std::swap(*this, rhs);
}
#endif // CXXBRIDGE1_RUST_SLICE

#ifndef CXXBRIDGE1_RUST_BOX
#define CXXBRIDGE1_RUST_BOX
template <typename T>
class Box final {
public:
  using element_type = T;
  using const_pointer =
      typename std::add_pointer<typename std::add_const<T>::type>::type;
  using pointer = typename std::add_pointer<T>::type;

  Box() = delete;
  Box(Box &&) noexcept;
  ~Box() noexcept;

  explicit Box(const T &);
  explicit Box(T &&);

  Box &operator=(Box &&) & noexcept;

  const T *operator->() const noexcept;
  const T &operator*() const noexcept;
  T *operator->() noexcept;
  T &operator*() noexcept;

  template <typename... Fields>
  static Box in_place(Fields &&...);

  void swap(Box &) noexcept;

  static Box from_raw(T *) noexcept;

  T *into_raw() noexcept;

  /* Deprecated */ using value_type = element_type;

private:
  class uninit;
  class allocation;
  Box(uninit) noexcept;
  void drop() noexcept;

  friend void swap(Box &lhs, Box &rhs) noexcept { lhs.swap(rhs); }

  T *ptr;
};

template <typename T>
class Box<T>::uninit {};

template <typename T>
class Box<T>::allocation {
  static T *alloc() noexcept;
  static void dealloc(T *) noexcept;

public:
  allocation() noexcept : ptr(alloc()) {}
  ~allocation() noexcept {
    if (this->ptr) {
      dealloc(this->ptr);
    }
  }
  T *ptr;
};

template <typename T>
Box<T>::Box(Box &&other) noexcept : ptr(other.ptr) {
  other.ptr = nullptr;
}

template <typename T>
Box<T>::Box(const T &val) {
  allocation alloc;
  ::new (alloc.ptr) T(val);
  this->ptr = alloc.ptr;
  alloc.ptr = nullptr;
}

template <typename T>
Box<T>::Box(T &&val) {
  allocation alloc;
  ::new (alloc.ptr) T(std::move(val));
  this->ptr = alloc.ptr;
  alloc.ptr = nullptr;
}

template <typename T>
Box<T>::~Box() noexcept {
  if (this->ptr) {
    this->drop();
  }
}

template <typename T>
Box<T> &Box<T>::operator=(Box &&other) & noexcept {
  if (this->ptr) {
    this->drop();
  }
  this->ptr = other.ptr;
  other.ptr = nullptr;
  return *this;
}

template <typename T>
const T *Box<T>::operator->() const noexcept {
  return this->ptr;
}

template <typename T>
const T &Box<T>::operator*() const noexcept {
  return *this->ptr;
}

template <typename T>
T *Box<T>::operator->() noexcept {
  return this->ptr;
}

template <typename T>
T &Box<T>::operator*() noexcept {
  return *this->ptr;
}

template <typename T>
template <typename... Fields>
Box<T> Box<T>::in_place(Fields &&...fields) {
  allocation alloc;
  auto ptr = alloc.ptr;
  ::new (ptr) T{std::forward<Fields>(fields)...};
  alloc.ptr = nullptr;
  return from_raw(ptr);
}

template <typename T>
void Box<T>::swap(Box &rhs) noexcept {
  using std::swap;
  swap(this->ptr, rhs.ptr);
}

template <typename T>
Box<T> Box<T>::from_raw(T *raw) noexcept {
  Box box = uninit{};
  box.ptr = raw;
  return box;
}

template <typename T>
T *Box<T>::into_raw() noexcept {
  T *raw = this->ptr;
  this->ptr = nullptr;
  return raw;
}

template <typename T>
Box<T>::Box(uninit) noexcept {}
#endif // CXXBRIDGE1_RUST_BOX

#ifndef CXXBRIDGE1_RUST_BITCOPY_T
#define CXXBRIDGE1_RUST_BITCOPY_T
struct unsafe_bitcopy_t final {
  explicit unsafe_bitcopy_t() = default;
};
#endif // CXXBRIDGE1_RUST_BITCOPY_T

#ifndef CXXBRIDGE1_RUST_VEC
#define CXXBRIDGE1_RUST_VEC
template <typename T>
class Vec final {
public:
  using value_type = T;

  Vec() noexcept;
  Vec(std::initializer_list<T>);
  Vec(const Vec &);
  Vec(Vec &&) noexcept;
  ~Vec() noexcept;

  Vec &operator=(Vec &&) & noexcept;
  Vec &operator=(const Vec &) &;

  std::size_t size() const noexcept;
  bool empty() const noexcept;
  const T *data() const noexcept;
  T *data() noexcept;
  std::size_t capacity() const noexcept;

  const T &operator[](std::size_t n) const noexcept;
  const T &at(std::size_t n) const;
  const T &front() const noexcept;
  const T &back() const noexcept;

  T &operator[](std::size_t n) noexcept;
  T &at(std::size_t n);
  T &front() noexcept;
  T &back() noexcept;

  void reserve(std::size_t new_cap);
  void push_back(const T &value);
  void push_back(T &&value);
  template <typename... Args>
  void emplace_back(Args &&...args);
  void truncate(std::size_t len);
  void clear();

  using iterator = typename Slice<T>::iterator;
  iterator begin() noexcept;
  iterator end() noexcept;

  using const_iterator = typename Slice<const T>::iterator;
  const_iterator begin() const noexcept;
  const_iterator end() const noexcept;
  const_iterator cbegin() const noexcept;
  const_iterator cend() const noexcept;

  void swap(Vec &) noexcept;

  Vec(unsafe_bitcopy_t, const Vec &) noexcept;

private:
  void reserve_total(std::size_t new_cap) noexcept;
  void set_len(std::size_t len) noexcept;
  void drop() noexcept;

  friend void swap(Vec &lhs, Vec &rhs) noexcept { lhs.swap(rhs); }

  std::array<std::uintptr_t, 3> repr;
};

template <typename T>
Vec<T>::Vec(std::initializer_list<T> init) : Vec{} {
  this->reserve_total(init.size());
  std::move(init.begin(), init.end(), std::back_inserter(*this));
}

template <typename T>
Vec<T>::Vec(const Vec &other) : Vec() {
  this->reserve_total(other.size());
  std::copy(other.begin(), other.end(), std::back_inserter(*this));
}

template <typename T>
Vec<T>::Vec(Vec &&other) noexcept : repr(other.repr) {
  new (&other) Vec();
}

template <typename T>
Vec<T>::~Vec() noexcept {
  this->drop();
}

template <typename T>
Vec<T> &Vec<T>::operator=(Vec &&other) & noexcept {
  this->drop();
  this->repr = other.repr;
  new (&other) Vec();
  return *this;
}

template <typename T>
Vec<T> &Vec<T>::operator=(const Vec &other) & {
  if (this != &other) {
    this->drop();
    new (this) Vec(other);
  }
  return *this;
}

template <typename T>
bool Vec<T>::empty() const noexcept {
  return this->size() == 0;
}

template <typename T>
T *Vec<T>::data() noexcept {
  return const_cast<T *>(const_cast<const Vec<T> *>(this)->data());
}

template <typename T>
const T &Vec<T>::operator[](std::size_t n) const noexcept {
  assert(n < this->size());
  auto data = reinterpret_cast<const char *>(this->data());
  return *reinterpret_cast<const T *>(data + n * size_of<T>());
}

template <typename T>
const T &Vec<T>::at(std::size_t n) const {
  if (n >= this->size()) {
    panic<std::out_of_range>("rust::Vec index out of range");
  }
  return (*this)[n];
}

template <typename T>
const T &Vec<T>::front() const noexcept {
  assert(!this->empty());
  return (*this)[0];
}

template <typename T>
const T &Vec<T>::back() const noexcept {
  assert(!this->empty());
  return (*this)[this->size() - 1];
}

template <typename T>
T &Vec<T>::operator[](std::size_t n) noexcept {
  assert(n < this->size());
  auto data = reinterpret_cast<char *>(this->data());
  return *reinterpret_cast<T *>(data + n * size_of<T>());
}

template <typename T>
T &Vec<T>::at(std::size_t n) {
  if (n >= this->size()) {
    panic<std::out_of_range>("rust::Vec index out of range");
  }
  return (*this)[n];
}

template <typename T>
T &Vec<T>::front() noexcept {
  assert(!this->empty());
  return (*this)[0];
}

template <typename T>
T &Vec<T>::back() noexcept {
  assert(!this->empty());
  return (*this)[this->size() - 1];
}

template <typename T>
void Vec<T>::reserve(std::size_t new_cap) {
  this->reserve_total(new_cap);
}

template <typename T>
void Vec<T>::push_back(const T &value) {
  this->emplace_back(value);
}

template <typename T>
void Vec<T>::push_back(T &&value) {
  this->emplace_back(std::move(value));
}

template <typename T>
template <typename... Args>
void Vec<T>::emplace_back(Args &&...args) {
  auto size = this->size();
  this->reserve_total(size + 1);
  ::new (reinterpret_cast<T *>(reinterpret_cast<char *>(this->data()) +
                               size * size_of<T>()))
      T(std::forward<Args>(args)...);
  this->set_len(size + 1);
}

template <typename T>
void Vec<T>::clear() {
  this->truncate(0);
}

template <typename T>
typename Vec<T>::iterator Vec<T>::begin() noexcept {
  return Slice<T>(this->data(), this->size()).begin();
}

template <typename T>
typename Vec<T>::iterator Vec<T>::end() noexcept {
  return Slice<T>(this->data(), this->size()).end();
}

template <typename T>
typename Vec<T>::const_iterator Vec<T>::begin() const noexcept {
  return this->cbegin();
}

template <typename T>
typename Vec<T>::const_iterator Vec<T>::end() const noexcept {
  return this->cend();
}

template <typename T>
typename Vec<T>::const_iterator Vec<T>::cbegin() const noexcept {
  return Slice<const T>(this->data(), this->size()).begin();
}

template <typename T>
typename Vec<T>::const_iterator Vec<T>::cend() const noexcept {
  return Slice<const T>(this->data(), this->size()).end();
}

template <typename T>
void Vec<T>::swap(Vec &rhs) noexcept {
  using std::swap;
  swap(this->repr, rhs.repr);
}

template <typename T>
Vec<T>::Vec(unsafe_bitcopy_t, const Vec &bits) noexcept : repr(bits.repr) {}
#endif // CXXBRIDGE1_RUST_VEC

#ifndef CXXBRIDGE1_RUST_ERROR
#define CXXBRIDGE1_RUST_ERROR
class Error final : public std::exception {
public:
  Error(const Error &);
  Error(Error &&) noexcept;
  ~Error() noexcept override;

  Error &operator=(const Error &) &;
  Error &operator=(Error &&) & noexcept;

  const char *what() const noexcept override;

private:
  Error() noexcept = default;
  friend impl<Error>;
  const char *msg;
  std::size_t len;
};
#endif // CXXBRIDGE1_RUST_ERROR

#ifndef CXXBRIDGE1_RUST_OPAQUE
#define CXXBRIDGE1_RUST_OPAQUE
class Opaque {
public:
  Opaque() = delete;
  Opaque(const Opaque &) = delete;
  ~Opaque() = delete;
};
#endif // CXXBRIDGE1_RUST_OPAQUE

#ifndef CXXBRIDGE1_IS_COMPLETE
#define CXXBRIDGE1_IS_COMPLETE
namespace detail {
namespace {
template <typename T, typename = std::size_t>
struct is_complete : std::false_type {};
template <typename T>
struct is_complete<T, decltype(sizeof(T))> : std::true_type {};
} // namespace
} // namespace detail
#endif // CXXBRIDGE1_IS_COMPLETE

#ifndef CXXBRIDGE1_LAYOUT
#define CXXBRIDGE1_LAYOUT
class layout {
  template <typename T>
  friend std::size_t size_of();
  template <typename T>
  friend std::size_t align_of();
  template <typename T>
  static typename std::enable_if<std::is_base_of<Opaque, T>::value,
                                 std::size_t>::type
  do_size_of() {
    return T::layout::size();
  }
  template <typename T>
  static typename std::enable_if<!std::is_base_of<Opaque, T>::value,
                                 std::size_t>::type
  do_size_of() {
    return sizeof(T);
  }
  template <typename T>
  static
      typename std::enable_if<detail::is_complete<T>::value, std::size_t>::type
      size_of() {
    return do_size_of<T>();
  }
  template <typename T>
  static typename std::enable_if<std::is_base_of<Opaque, T>::value,
                                 std::size_t>::type
  do_align_of() {
    return T::layout::align();
  }
  template <typename T>
  static typename std::enable_if<!std::is_base_of<Opaque, T>::value,
                                 std::size_t>::type
  do_align_of() {
    return alignof(T);
  }
  template <typename T>
  static
      typename std::enable_if<detail::is_complete<T>::value, std::size_t>::type
      align_of() {
    return do_align_of<T>();
  }
};

template <typename T>
std::size_t size_of() {
  return layout::size_of<T>();
}

template <typename T>
std::size_t align_of() {
  return layout::align_of<T>();
}
#endif // CXXBRIDGE1_LAYOUT

class Str::uninit {};
inline Str::Str(uninit) noexcept {}

namespace repr {
using Fat = ::std::array<::std::uintptr_t, 2>;

struct PtrLen final {
  void *ptr;
  ::std::size_t len;
};
} // namespace repr

namespace detail {
template <typename T, typename = void *>
struct operator_new {
  void *operator()(::std::size_t sz) { return ::operator new(sz); }
};

template <typename T>
struct operator_new<T, decltype(T::operator new(sizeof(T)))> {
  void *operator()(::std::size_t sz) { return T::operator new(sz); }
};
} // namespace detail

template <typename T>
union MaybeUninit {
  T value;
  void *operator new(::std::size_t sz) { return detail::operator_new<T>{}(sz); }
  MaybeUninit() {}
  ~MaybeUninit() {}
};

namespace {
template <>
class impl<Str> final {
public:
  static Str new_unchecked(repr::Fat repr) noexcept {
    Str str = Str::uninit{};
    str.repr = repr;
    return str;
  }
};

template <>
class impl<Error> final {
public:
  static Error error(repr::PtrLen repr) noexcept {
    Error error;
    error.msg = static_cast<char const *>(repr.ptr);
    error.len = repr.len;
    return error;
  }
};
} // namespace
} // namespace cxxbridge1
} // namespace rust

#if __cplusplus >= 201402L
#define CXX_DEFAULT_VALUE(value) = value
#else
#define CXX_DEFAULT_VALUE(value)
#endif

namespace flinch {
  namespace detail {
    struct Transform;
    struct HitEvent;
    enum class ColliderShape : ::std::uint32_t;
    struct ColliderDesc;
    struct RayHit;
    enum class RootPolicy : ::std::uint32_t;
    enum class RootState : ::std::uint32_t;
    struct RootEvent;
    enum class FallPhase : ::std::uint32_t;
    struct FallEvent;
    struct BakeSummary;
    struct ClipData;
    struct WorldData;
    struct PreparedData;
  }
}

namespace flinch {
namespace detail {
#ifndef CXXBRIDGE1_STRUCT_flinch$detail$Transform
#define CXXBRIDGE1_STRUCT_flinch$detail$Transform
// A rigid transform: position (m) and rotation quaternion x, y, z, w.
struct Transform final {
  // Translation x, y, z (m).
  ::std::array<double, 3> position;
  // Rotation quaternion x, y, z, w.
  ::std::array<double, 4> rotation;

  bool operator==(Transform const &) const noexcept;
  bool operator!=(Transform const &) const noexcept;
  using IsRelocatable = ::std::true_type;
};
#endif // CXXBRIDGE1_STRUCT_flinch$detail$Transform

#ifndef CXXBRIDGE1_STRUCT_flinch$detail$HitEvent
#define CXXBRIDGE1_STRUCT_flinch$detail$HitEvent
// A hit of the last step: a ball's touch, a kinematic collider's push or a scripted impulse.
struct HitEvent final {
  // Time of the hit (s).
  double time CXX_DEFAULT_VALUE(0);
  // Key of the character hit.
  ::std::uint64_t character CXX_DEFAULT_VALUE(0);
  // Skeleton joint name of the bone hit.
  ::rust::String bone;
  // Contact point (m, world).
  ::std::array<double, 3> point;
  // Contact normal (unit, world).
  ::std::array<double, 3> normal;
  // Impulse given to the character (N·s, world).
  ::std::array<double, 3> impulse;
  // Key of the ball (0: not a ball).
  ::std::uint64_t ball CXX_DEFAULT_VALUE(0);
  // Key of the kinematic collider that pushed (0: not a collider).
  ::std::uint64_t collider CXX_DEFAULT_VALUE(0);

  bool operator==(HitEvent const &) const noexcept;
  bool operator!=(HitEvent const &) const noexcept;
  using IsRelocatable = ::std::true_type;
};
#endif // CXXBRIDGE1_STRUCT_flinch$detail$HitEvent

#ifndef CXXBRIDGE1_ENUM_flinch$detail$ColliderShape
#define CXXBRIDGE1_ENUM_flinch$detail$ColliderShape
// A collider's shape (see `FlinchColliderShape` in flinch.h).
enum class ColliderShape : ::std::uint32_t {
  // The solid half-space below a plane through the collider origin (`size`: its outward normal).
  Plane = 0,
  // A box (`size`: half extents, m).
  Box = 1,
  // A ball (`size[0]`: radius, m).
  Sphere = 2,
  // A capsule along local Y (`size[0]`: half height, `size[1]`: radius, m).
  Capsule = 3,
  // The convex hull of `points` (xyz triples).
  ConvexHull = 4,
  // A triangle mesh: `points` (xyz vertex triples), `triangles` (index triples).
  TriangleMesh = 5,
  // A height grid: `points` holds `rows × cols` heights (rows along z), `size_x` × `size_z` metres.
  HeightField = 6,
};
#endif // CXXBRIDGE1_ENUM_flinch$detail$ColliderShape

#ifndef CXXBRIDGE1_STRUCT_flinch$detail$ColliderDesc
#define CXXBRIDGE1_STRUCT_flinch$detail$ColliderDesc
// A collider to add (the arrays of its shape are passed beside it).
struct ColliderDesc final {
  // The shape.
  ::flinch::detail::ColliderShape shape;
  // The plane's normal, the box's half extents, the sphere's radius (`[0]`), the capsule's half height and
  // radius (`[0]`, `[1]`).
  ::std::array<double, 3> size;
  // A height field's rows (along z).
  ::std::size_t rows CXX_DEFAULT_VALUE(0);
  // A height field's columns (along x).
  ::std::size_t cols CXX_DEFAULT_VALUE(0);
  // A height field's extent along x (m).
  double size_x CXX_DEFAULT_VALUE(0);
  // A height field's extent along z (m).
  double size_z CXX_DEFAULT_VALUE(0);
  // The collider frame in the world (rotation normalized; nonzero).
  ::flinch::detail::Transform pose;
  // Coulomb friction; negative: each character's own.
  double friction CXX_DEFAULT_VALUE(0);
  // Newton restitution in [0, 1].
  double restitution CXX_DEFAULT_VALUE(0);
  // Membership bits.
  ::std::uint32_t layers CXX_DEFAULT_VALUE(0);
  // The character layers it touches.
  ::std::uint32_t mask CXX_DEFAULT_VALUE(0);
  // Moved by the game (`move_collider`) instead of static.
  bool kinematic CXX_DEFAULT_VALUE(false);
  // A name for messages.
  ::rust::String name;

  using IsRelocatable = ::std::true_type;
};
#endif // CXXBRIDGE1_STRUCT_flinch$detail$ColliderDesc

#ifndef CXXBRIDGE1_STRUCT_flinch$detail$RayHit
#define CXXBRIDGE1_STRUCT_flinch$detail$RayHit
// The first hit of a ray or sphere sweep.
struct RayHit final {
  // Whether anything was hit (else the other fields are zero and empty).
  bool hit CXX_DEFAULT_VALUE(false);
  // Key of the character hit (0: not a character).
  ::std::uint64_t character CXX_DEFAULT_VALUE(0);
  // Skeleton joint name of the body hit (empty: not a character).
  ::rust::String bone;
  // Key of the collider hit (0: not a collider).
  ::std::uint64_t collider CXX_DEFAULT_VALUE(0);
  // The point on the hit surface (m, world).
  ::std::array<double, 3> point;
  // The surface normal there (unit, facing the ray).
  ::std::array<double, 3> normal;
  // Distance along the ray (m), or the sphere centre's travel for a sweep.
  double distance CXX_DEFAULT_VALUE(0);

  bool operator==(RayHit const &) const noexcept;
  bool operator!=(RayHit const &) const noexcept;
  using IsRelocatable = ::std::true_type;
};
#endif // CXXBRIDGE1_STRUCT_flinch$detail$RayHit

#ifndef CXXBRIDGE1_ENUM_flinch$detail$RootPolicy
#define CXXBRIDGE1_ENUM_flinch$detail$RootPolicy
// How a character's root moves (see `FlinchRootPolicy` in flinch.h).
enum class RootPolicy : ::std::uint32_t {
  // The root follows the clip exactly (the default).
  Kinematic = 0,
  // A free root standing on its feet, without assist: falls when it loses its balance.
  Free = 1,
  // A free root with an assist toward the clip's root pose.
  Assisted = 2,
  // A free root balanced by its joints and feet alone: no external wrench while tracking (experimental).
  Balanced = 3,
};
#endif // CXXBRIDGE1_ENUM_flinch$detail$RootPolicy

#ifndef CXXBRIDGE1_ENUM_flinch$detail$RootState
#define CXXBRIDGE1_ENUM_flinch$detail$RootState
// A free-root character's balance state (see `FlinchRootState` in flinch.h).
enum class RootState : ::std::uint32_t {
  // On its clip.
  Tracking = 0,
  // Hit above the threshold: the assist fades out.
  Staggering = 1,
  // Balance lost: the gains drop.
  Falling = 2,
  // Limp.
  Ragdoll = 3,
  // Still for the rest time.
  Resting = 4,
  // Blending back into the clip.
  GettingUp = 5,
};
#endif // CXXBRIDGE1_ENUM_flinch$detail$RootState

#ifndef CXXBRIDGE1_STRUCT_flinch$detail$RootEvent
#define CXXBRIDGE1_STRUCT_flinch$detail$RootEvent
// A balance state transition of a character.
struct RootEvent final {
  // World time of the transition (s).
  double time CXX_DEFAULT_VALUE(0);
  // The state left.
  ::flinch::detail::RootState from;
  // The state entered.
  ::flinch::detail::RootState to;

  bool operator==(RootEvent const &) const noexcept;
  bool operator!=(RootEvent const &) const noexcept;
  using IsRelocatable = ::std::true_type;
};
#endif // CXXBRIDGE1_STRUCT_flinch$detail$RootEvent

#ifndef CXXBRIDGE1_ENUM_flinch$detail$FallPhase
#define CXXBRIDGE1_ENUM_flinch$detail$FallPhase
// A phase of a protective fall (see `FlinchFallPhase` in flinch.h).
enum class FallPhase : ::std::uint32_t {
  // The fall began: the arms reach toward the predicted ground contact, the head is held up.
  Reach = 0,
  // A body other than the legs touched the ground: the arms brace.
  Impact = 1,
  // The fall is over: limp.
  Limp = 2,
};
#endif // CXXBRIDGE1_ENUM_flinch$detail$FallPhase

#ifndef CXXBRIDGE1_STRUCT_flinch$detail$FallEvent
#define CXXBRIDGE1_STRUCT_flinch$detail$FallEvent
// A protective fall's phase change of a character.
struct FallEvent final {
  // World time (s): the end of the step that began the phase.
  double time CXX_DEFAULT_VALUE(0);
  // The phase entered.
  ::flinch::detail::FallPhase phase;
  // Reach: the predicted ground contact; Impact: the touching body's lowest point; Limp: the root (m).
  ::std::array<double, 3> point;
  // Impact: the skeleton joint of the body that touched; `usize::MAX` for the other phases.
  ::std::size_t joint CXX_DEFAULT_VALUE(0);

  bool operator==(FallEvent const &) const noexcept;
  bool operator!=(FallEvent const &) const noexcept;
  using IsRelocatable = ::std::true_type;
};
#endif // CXXBRIDGE1_STRUCT_flinch$detail$FallEvent

#ifndef CXXBRIDGE1_STRUCT_flinch$detail$BakeSummary
#define CXXBRIDGE1_STRUCT_flinch$detail$BakeSummary
// What `bake_file` did (see `FlinchBakeSummary` in flinch.h).
struct BakeSummary final {
  // Frames of the baked clip.
  ::std::size_t frames CXX_DEFAULT_VALUE(0);
  // Simulation steps run.
  ::std::size_t steps CXX_DEFAULT_VALUE(0);
  // Seconds of motion simulated.
  double duration_s CXX_DEFAULT_VALUE(0);
  // Hit events: ball contacts and scripted impulses.
  ::std::size_t events CXX_DEFAULT_VALUE(0);
  // Whether the bake had hits (the peak, return and energy fields are meaningful).
  bool has_hit CXX_DEFAULT_VALUE(false);
  // Largest joint deviation from the reference after the first hit (degrees); 0 without hits.
  double peak_deg CXX_DEFAULT_VALUE(0);
  // When the peak happened (s); negative without hits.
  double peak_time_s CXX_DEFAULT_VALUE(0);
  // Skeleton joint of the peak; empty without hits.
  ::rust::String peak_joint;
  // Time from the first hit until every joint stays within 2° of the reference (s); negative without hits
  // or when it never does before the clip ends.
  double return_s CXX_DEFAULT_VALUE(0);
  // Work done by the hit forces (J); 0 without hits.
  double energy_j CXX_DEFAULT_VALUE(0);
  // RMS joint-angle tracking error before the first hit (degrees).
  double track_rms_deg CXX_DEFAULT_VALUE(0);
  // Largest joint anchor separation over the run (mm).
  double max_joint_gap_mm CXX_DEFAULT_VALUE(0);

  bool operator==(BakeSummary const &) const noexcept;
  bool operator!=(BakeSummary const &) const noexcept;
  using IsRelocatable = ::std::true_type;
};
#endif // CXXBRIDGE1_STRUCT_flinch$detail$BakeSummary

#ifndef CXXBRIDGE1_STRUCT_flinch$detail$ClipData
#define CXXBRIDGE1_STRUCT_flinch$detail$ClipData
// A loaded clip (skeleton + motion).
struct ClipData final : public ::rust::Opaque {
  // Number of skeleton joints.
  ::std::size_t joint_count() const noexcept;

  // Duration (s).
  double duration() const noexcept;

  // Number of frames (a detected leading T-pose frame excluded).
  ::std::size_t frame_count() const noexcept;

  // Seconds between frames.
  double frame_time() const noexcept;

  // Frame `index` per joint: local rotation relative to rest and local translation.
  ::rust::Vec<::flinch::detail::Transform> frame(::std::size_t index) const;

  // The clip made `seconds` long: a detected leading T-pose frame dropped, then its best loop repeated
  // without a seam, each repetition moved on by the distance the loop travels.
  ::rust::Box<::flinch::detail::ClipData> looped(double seconds) const;

  ~ClipData() = delete;

private:
  friend ::rust::layout;
  struct layout {
    static ::std::size_t size() noexcept;
    static ::std::size_t align() noexcept;
  };
};
#endif // CXXBRIDGE1_STRUCT_flinch$detail$ClipData

#ifndef CXXBRIDGE1_STRUCT_flinch$detail$WorldData
#define CXXBRIDGE1_STRUCT_flinch$detail$WorldData
// A world of characters and balls.
struct WorldData final : public ::rust::Opaque {
  // Builds the character of `clip` (`config_json` empty: defaults) and adds it; returns its key.
  ::std::uint64_t add_character(::flinch::detail::ClipData const &clip, ::rust::Str config_json);

  // Whether bodies of different characters collide (default true).
  void set_character_contacts(bool enabled) noexcept;

  // Adds a character of a prepared clip (sharing its tables); returns its key.
  ::std::uint64_t add_prepared(::flinch::detail::PreparedData const &prepared) noexcept;

  // Builds a character driven by streamed targets on `clip`'s skeleton (at rest in its first frame) and
  // adds it; returns its key.
  ::std::uint64_t add_streamed_character(::flinch::detail::ClipData const &clip, ::rust::Str config_json);

  // Sets a character's target pose for the end of the next step (per joint: local rotation relative to
  // rest and local translation); `velocities` is empty or 6 numbers per joint (linear x y z (root only),
  // angular x y z).
  void set_target_pose(::std::uint64_t key, ::rust::Slice<::flinch::detail::Transform const> pose, ::rust::Slice<double const> velocities);

  // Removes a character.
  void remove_character(::std::uint64_t key);

  // Advances the world by `dt` seconds.
  void step(double dt);

  // Simulation time (s).
  double time() const noexcept;

  // Impulse (N·s, world) on the body of `bone` at `point` (3 values, m, world; empty: the centre of mass).
  void apply_impulse(::std::uint64_t key, ::rust::Str bone, ::rust::Slice<double const> point, ::rust::Slice<double const> impulse);

  // Skeleton joint names of a character.
  ::rust::Vec<::rust::String> joint_names(::std::uint64_t key) const;

  // Per skeleton joint: deviation from the reference (radians; merged bones 0).
  ::rust::Vec<double> joint_deviations(::std::uint64_t key) const;

  // Per skeleton joint: world transform.
  ::rust::Vec<::flinch::detail::Transform> world_transforms(::std::uint64_t key) const;

  // Per skeleton joint: local rotation relative to rest and local translation.
  ::rust::Vec<::flinch::detail::Transform> local_pose(::std::uint64_t key) const;

  // Spawns a ball; returns its key.
  ::std::uint64_t spawn_ball(double radius, double mass, ::rust::Slice<double const> position, ::rust::Slice<double const> velocity);

  // The hit events of the last step.
  ::rust::Vec<::flinch::detail::HitEvent> events() const noexcept;

  // Switches a character's root policy (a clip without feet cannot go free).
  void set_root_policy(::std::uint64_t key, ::flinch::detail::RootPolicy policy);

  // A character's root policy.
  ::flinch::detail::RootPolicy root_policy(::std::uint64_t key) const;

  // Sets the assist weight of a character's free root (finite, in [0, 1]).
  void set_assist_weight(::std::uint64_t key, double weight);

  // A character's balance state (`Tracking` for a kinematic root).
  ::flinch::detail::RootState root_state(::std::uint64_t key) const;

  // A character's balance state transitions since its root was made free, oldest first.
  ::rust::Vec<::flinch::detail::RootEvent> root_events(::std::uint64_t key) const;

  // A character's protective-fall phase changes, oldest first (none for a kinematic root).
  ::rust::Vec<::flinch::detail::FallEvent> fall_events(::std::uint64_t key) const;

  // The floor height (m) of a character's free root (an error for a kinematic root).
  double ground_floor(::std::uint64_t key) const;

  // The deepest body point below the floor after the last step (m; 0 for a kinematic root).
  double ground_penetration(::std::uint64_t key) const;

  // The clip time (s) a character plays now.
  double clip_time(::std::uint64_t key) const;

  // Adds a collider (`points`: hull points or mesh vertices as xyz triples, or a height field's heights;
  // `triangles`: a mesh's index triples); returns its key.
  ::std::uint64_t add_collider(::flinch::detail::ColliderDesc const &desc, ::rust::Slice<double const> points, ::rust::Slice<::std::uint32_t const> triangles);

  // Removes a collider (a stale key is an error).
  void remove_collider(::std::uint64_t key);

  // Moves a kinematic collider to `pose` by the end of the next step; `linear` and `angular` are empty
  // (the velocity of the motion) or 3 numbers each (m/s, rad/s; world).
  void move_collider(::std::uint64_t key, ::flinch::detail::Transform const &pose, ::rust::Slice<double const> linear, ::rust::Slice<double const> angular);

  // Loads a level file (glTF/GLB) posed by `pose`; returns its colliders' keys in file order.
  ::rust::Vec<::std::uint64_t> load_level(::rust::Str path, ::flinch::detail::Transform const &pose);

  // Prepares a flat-ground clip to be walked over this world's level as it is now (its static
  // colliders: feet raised onto the ground, root and legs adapted); an error without a static collider.
  ::rust::Box<::flinch::detail::PreparedData> prepare_on_level(::flinch::detail::ClipData const &clip, ::rust::Str config_json) const;

  // The first character body or collider (its layers meeting `mask`) a ray meets within `max_distance`.
  ::flinch::detail::RayHit cast_ray(::rust::Slice<double const> origin, ::rust::Slice<double const> direction, double max_distance, ::std::uint32_t mask) const;

  // The first character body or collider a sphere of `radius` sweeping along `direction` touches.
  ::flinch::detail::RayHit cast_sphere(::rust::Slice<double const> origin, double radius, ::rust::Slice<double const> direction, double max_distance, ::std::uint32_t mask) const;

  // Sets a character's collision layers and mask against the level.
  void set_level_layers(::std::uint64_t key, ::std::uint32_t layers, ::std::uint32_t mask);

  ~WorldData() = delete;

private:
  friend ::rust::layout;
  struct layout {
    static ::std::size_t size() noexcept;
    static ::std::size_t align() noexcept;
  };
};
#endif // CXXBRIDGE1_STRUCT_flinch$detail$WorldData

#ifndef CXXBRIDGE1_STRUCT_flinch$detail$PreparedData
#define CXXBRIDGE1_STRUCT_flinch$detail$PreparedData
// A clip prepared for simulation (the shared half of characters).
struct PreparedData final : public ::rust::Opaque {
  // Duration (s) of the prepared reference motion.
  double duration() const noexcept;

  // The simulation step (s) the clip was prepared for.
  double step_size() const noexcept;

  // A copy sharing the same prepared tables (another owner, not another preparation).
  ::rust::Box<::flinch::detail::PreparedData> share() const noexcept;

  // The reference pose of the root body at clip time `time` (s, clamped to the clip): its centre of
  // mass (m) and orientation; where the clip walks.
  ::flinch::detail::Transform root_target(double time) const;

  // The floor height (m) fitted to the clip's stance feet; an error for a clip without feet.
  double floor() const;

  ~PreparedData() = delete;

private:
  friend ::rust::layout;
  struct layout {
    static ::std::size_t size() noexcept;
    static ::std::size_t align() noexcept;
  };
};
#endif // CXXBRIDGE1_STRUCT_flinch$detail$PreparedData

extern "C" {
bool flinch$detail$cxxbridge1$198$Transform$operator$eq(Transform const &, Transform const &) noexcept;
bool flinch$detail$cxxbridge1$198$Transform$operator$ne(Transform const &, Transform const &) noexcept;
bool flinch$detail$cxxbridge1$198$HitEvent$operator$eq(HitEvent const &, HitEvent const &) noexcept;
bool flinch$detail$cxxbridge1$198$HitEvent$operator$ne(HitEvent const &, HitEvent const &) noexcept;
bool flinch$detail$cxxbridge1$198$RayHit$operator$eq(RayHit const &, RayHit const &) noexcept;
bool flinch$detail$cxxbridge1$198$RayHit$operator$ne(RayHit const &, RayHit const &) noexcept;
bool flinch$detail$cxxbridge1$198$RootEvent$operator$eq(RootEvent const &, RootEvent const &) noexcept;
bool flinch$detail$cxxbridge1$198$RootEvent$operator$ne(RootEvent const &, RootEvent const &) noexcept;
bool flinch$detail$cxxbridge1$198$FallEvent$operator$eq(FallEvent const &, FallEvent const &) noexcept;
bool flinch$detail$cxxbridge1$198$FallEvent$operator$ne(FallEvent const &, FallEvent const &) noexcept;
bool flinch$detail$cxxbridge1$198$BakeSummary$operator$eq(BakeSummary const &, BakeSummary const &) noexcept;
bool flinch$detail$cxxbridge1$198$BakeSummary$operator$ne(BakeSummary const &, BakeSummary const &) noexcept;
::std::size_t flinch$detail$cxxbridge1$198$ClipData$operator$sizeof() noexcept;
::std::size_t flinch$detail$cxxbridge1$198$ClipData$operator$alignof() noexcept;
::std::size_t flinch$detail$cxxbridge1$198$WorldData$operator$sizeof() noexcept;
::std::size_t flinch$detail$cxxbridge1$198$WorldData$operator$alignof() noexcept;
::std::size_t flinch$detail$cxxbridge1$198$PreparedData$operator$sizeof() noexcept;
::std::size_t flinch$detail$cxxbridge1$198$PreparedData$operator$alignof() noexcept;

::rust::repr::Fat flinch$detail$cxxbridge1$198$version() noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$bake_file(::rust::Str input, ::rust::Str output, ::rust::Str hits_json, ::rust::Str config_json, double rate_hz, ::flinch::detail::BakeSummary *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$bake_onto(::rust::Str character, ::rust::Str input, ::rust::Str map_file, ::rust::Str output, ::rust::Str hits_json, ::rust::Str config_json, double rate_hz, ::flinch::detail::BakeSummary *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$load_clip_file(::rust::Str path, ::rust::Box<::flinch::detail::ClipData> *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$load_clip_memory(::rust::Slice<::std::uint8_t const> bytes, ::rust::Str format, ::rust::Str name, ::rust::Box<::flinch::detail::ClipData> *return$) noexcept;

::std::size_t flinch$detail$cxxbridge1$198$ClipData$joint_count(::flinch::detail::ClipData const &self) noexcept;

double flinch$detail$cxxbridge1$198$ClipData$duration(::flinch::detail::ClipData const &self) noexcept;

::std::size_t flinch$detail$cxxbridge1$198$ClipData$frame_count(::flinch::detail::ClipData const &self) noexcept;

double flinch$detail$cxxbridge1$198$ClipData$frame_time(::flinch::detail::ClipData const &self) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$ClipData$frame(::flinch::detail::ClipData const &self, ::std::size_t index, ::rust::Vec<::flinch::detail::Transform> *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$ClipData$looped(::flinch::detail::ClipData const &self, double seconds, ::rust::Box<::flinch::detail::ClipData> *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$prepare_clip(::flinch::detail::ClipData const &clip, ::rust::Str config_json, ::rust::Box<::flinch::detail::PreparedData> *return$) noexcept;

double flinch$detail$cxxbridge1$198$PreparedData$duration(::flinch::detail::PreparedData const &self) noexcept;

double flinch$detail$cxxbridge1$198$PreparedData$step_size(::flinch::detail::PreparedData const &self) noexcept;

::flinch::detail::PreparedData *flinch$detail$cxxbridge1$198$PreparedData$share(::flinch::detail::PreparedData const &self) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$PreparedData$root_target(::flinch::detail::PreparedData const &self, double time, ::flinch::detail::Transform *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$PreparedData$floor(::flinch::detail::PreparedData const &self, double *return$) noexcept;

::flinch::detail::WorldData *flinch$detail$cxxbridge1$198$new_world() noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$add_character(::flinch::detail::WorldData &self, ::flinch::detail::ClipData const &clip, ::rust::Str config_json, ::std::uint64_t *return$) noexcept;

void flinch$detail$cxxbridge1$198$WorldData$set_character_contacts(::flinch::detail::WorldData &self, bool enabled) noexcept;

::std::uint64_t flinch$detail$cxxbridge1$198$WorldData$add_prepared(::flinch::detail::WorldData &self, ::flinch::detail::PreparedData const &prepared) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$add_streamed_character(::flinch::detail::WorldData &self, ::flinch::detail::ClipData const &clip, ::rust::Str config_json, ::std::uint64_t *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$set_target_pose(::flinch::detail::WorldData &self, ::std::uint64_t key, ::rust::Slice<::flinch::detail::Transform const> pose, ::rust::Slice<double const> velocities) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$remove_character(::flinch::detail::WorldData &self, ::std::uint64_t key) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$step(::flinch::detail::WorldData &self, double dt) noexcept;

double flinch$detail$cxxbridge1$198$WorldData$time(::flinch::detail::WorldData const &self) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$apply_impulse(::flinch::detail::WorldData &self, ::std::uint64_t key, ::rust::Str bone, ::rust::Slice<double const> point, ::rust::Slice<double const> impulse) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$joint_names(::flinch::detail::WorldData const &self, ::std::uint64_t key, ::rust::Vec<::rust::String> *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$joint_deviations(::flinch::detail::WorldData const &self, ::std::uint64_t key, ::rust::Vec<double> *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$world_transforms(::flinch::detail::WorldData const &self, ::std::uint64_t key, ::rust::Vec<::flinch::detail::Transform> *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$local_pose(::flinch::detail::WorldData const &self, ::std::uint64_t key, ::rust::Vec<::flinch::detail::Transform> *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$spawn_ball(::flinch::detail::WorldData &self, double radius, double mass, ::rust::Slice<double const> position, ::rust::Slice<double const> velocity, ::std::uint64_t *return$) noexcept;

void flinch$detail$cxxbridge1$198$WorldData$events(::flinch::detail::WorldData const &self, ::rust::Vec<::flinch::detail::HitEvent> *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$set_root_policy(::flinch::detail::WorldData &self, ::std::uint64_t key, ::flinch::detail::RootPolicy policy) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$root_policy(::flinch::detail::WorldData const &self, ::std::uint64_t key, ::flinch::detail::RootPolicy *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$set_assist_weight(::flinch::detail::WorldData &self, ::std::uint64_t key, double weight) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$root_state(::flinch::detail::WorldData const &self, ::std::uint64_t key, ::flinch::detail::RootState *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$root_events(::flinch::detail::WorldData const &self, ::std::uint64_t key, ::rust::Vec<::flinch::detail::RootEvent> *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$fall_events(::flinch::detail::WorldData const &self, ::std::uint64_t key, ::rust::Vec<::flinch::detail::FallEvent> *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$ground_floor(::flinch::detail::WorldData const &self, ::std::uint64_t key, double *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$ground_penetration(::flinch::detail::WorldData const &self, ::std::uint64_t key, double *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$clip_time(::flinch::detail::WorldData const &self, ::std::uint64_t key, double *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$add_collider(::flinch::detail::WorldData &self, ::flinch::detail::ColliderDesc const &desc, ::rust::Slice<double const> points, ::rust::Slice<::std::uint32_t const> triangles, ::std::uint64_t *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$remove_collider(::flinch::detail::WorldData &self, ::std::uint64_t key) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$move_collider(::flinch::detail::WorldData &self, ::std::uint64_t key, ::flinch::detail::Transform const &pose, ::rust::Slice<double const> linear, ::rust::Slice<double const> angular) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$load_level(::flinch::detail::WorldData &self, ::rust::Str path, ::flinch::detail::Transform const &pose, ::rust::Vec<::std::uint64_t> *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$prepare_on_level(::flinch::detail::WorldData const &self, ::flinch::detail::ClipData const &clip, ::rust::Str config_json, ::rust::Box<::flinch::detail::PreparedData> *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$cast_ray(::flinch::detail::WorldData const &self, ::rust::Slice<double const> origin, ::rust::Slice<double const> direction, double max_distance, ::std::uint32_t mask, ::flinch::detail::RayHit *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$cast_sphere(::flinch::detail::WorldData const &self, ::rust::Slice<double const> origin, double radius, ::rust::Slice<double const> direction, double max_distance, ::std::uint32_t mask, ::flinch::detail::RayHit *return$) noexcept;

::rust::repr::PtrLen flinch$detail$cxxbridge1$198$WorldData$set_level_layers(::flinch::detail::WorldData &self, ::std::uint64_t key, ::std::uint32_t layers, ::std::uint32_t mask) noexcept;
} // extern "C"

bool Transform::operator==(Transform const &rhs) const noexcept {
  return flinch$detail$cxxbridge1$198$Transform$operator$eq(*this, rhs);
}

bool Transform::operator!=(Transform const &rhs) const noexcept {
  return flinch$detail$cxxbridge1$198$Transform$operator$ne(*this, rhs);
}

bool HitEvent::operator==(HitEvent const &rhs) const noexcept {
  return flinch$detail$cxxbridge1$198$HitEvent$operator$eq(*this, rhs);
}

bool HitEvent::operator!=(HitEvent const &rhs) const noexcept {
  return flinch$detail$cxxbridge1$198$HitEvent$operator$ne(*this, rhs);
}

bool RayHit::operator==(RayHit const &rhs) const noexcept {
  return flinch$detail$cxxbridge1$198$RayHit$operator$eq(*this, rhs);
}

bool RayHit::operator!=(RayHit const &rhs) const noexcept {
  return flinch$detail$cxxbridge1$198$RayHit$operator$ne(*this, rhs);
}

bool RootEvent::operator==(RootEvent const &rhs) const noexcept {
  return flinch$detail$cxxbridge1$198$RootEvent$operator$eq(*this, rhs);
}

bool RootEvent::operator!=(RootEvent const &rhs) const noexcept {
  return flinch$detail$cxxbridge1$198$RootEvent$operator$ne(*this, rhs);
}

bool FallEvent::operator==(FallEvent const &rhs) const noexcept {
  return flinch$detail$cxxbridge1$198$FallEvent$operator$eq(*this, rhs);
}

bool FallEvent::operator!=(FallEvent const &rhs) const noexcept {
  return flinch$detail$cxxbridge1$198$FallEvent$operator$ne(*this, rhs);
}

bool BakeSummary::operator==(BakeSummary const &rhs) const noexcept {
  return flinch$detail$cxxbridge1$198$BakeSummary$operator$eq(*this, rhs);
}

bool BakeSummary::operator!=(BakeSummary const &rhs) const noexcept {
  return flinch$detail$cxxbridge1$198$BakeSummary$operator$ne(*this, rhs);
}

::std::size_t ClipData::layout::size() noexcept {
  return flinch$detail$cxxbridge1$198$ClipData$operator$sizeof();
}

::std::size_t ClipData::layout::align() noexcept {
  return flinch$detail$cxxbridge1$198$ClipData$operator$alignof();
}

::std::size_t WorldData::layout::size() noexcept {
  return flinch$detail$cxxbridge1$198$WorldData$operator$sizeof();
}

::std::size_t WorldData::layout::align() noexcept {
  return flinch$detail$cxxbridge1$198$WorldData$operator$alignof();
}

::std::size_t PreparedData::layout::size() noexcept {
  return flinch$detail$cxxbridge1$198$PreparedData$operator$sizeof();
}

::std::size_t PreparedData::layout::align() noexcept {
  return flinch$detail$cxxbridge1$198$PreparedData$operator$alignof();
}

// The library version, `MAJOR.MINOR.PATCH`.
::rust::Str version() noexcept {
  return ::rust::impl<::rust::Str>::new_unchecked(flinch$detail$cxxbridge1$198$version());
}

// Bakes `input` (empty: the embedded walk) with the hits JSON text `hits_json` (empty: none) into
// `output` (format by extension), `config_json` (empty: defaults) at `rate_hz` (≤ 0: 120).
::flinch::detail::BakeSummary bake_file(::rust::Str input, ::rust::Str output, ::rust::Str hits_json, ::rust::Str config_json, double rate_hz) {
  ::rust::MaybeUninit<::flinch::detail::BakeSummary> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$bake_file(input, output, hits_json, config_json, rate_hz, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

// Retargets `input` (empty: the embedded walk) onto `character` (`map_file`: empty or a bone map
// override file) and bakes it like `bake_file`: `flinch bake --onto`.
::flinch::detail::BakeSummary bake_onto(::rust::Str character, ::rust::Str input, ::rust::Str map_file, ::rust::Str output, ::rust::Str hits_json, ::rust::Str config_json, double rate_hz) {
  ::rust::MaybeUninit<::flinch::detail::BakeSummary> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$bake_onto(character, input, map_file, output, hits_json, config_json, rate_hz, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

// Loads a clip file (format from the extension).
::rust::Box<::flinch::detail::ClipData> load_clip_file(::rust::Str path) {
  ::rust::MaybeUninit<::rust::Box<::flinch::detail::ClipData>> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$load_clip_file(path, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

// Loads a clip from memory; `format` is `bvh`, `gltf`, `glb` or `urdf`; `name` is used in messages.
::rust::Box<::flinch::detail::ClipData> load_clip_memory(::rust::Slice<::std::uint8_t const> bytes, ::rust::Str format, ::rust::Str name) {
  ::rust::MaybeUninit<::rust::Box<::flinch::detail::ClipData>> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$load_clip_memory(bytes, format, name, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

::std::size_t ClipData::joint_count() const noexcept {
  return flinch$detail$cxxbridge1$198$ClipData$joint_count(*this);
}

double ClipData::duration() const noexcept {
  return flinch$detail$cxxbridge1$198$ClipData$duration(*this);
}

::std::size_t ClipData::frame_count() const noexcept {
  return flinch$detail$cxxbridge1$198$ClipData$frame_count(*this);
}

double ClipData::frame_time() const noexcept {
  return flinch$detail$cxxbridge1$198$ClipData$frame_time(*this);
}

::rust::Vec<::flinch::detail::Transform> ClipData::frame(::std::size_t index) const {
  ::rust::MaybeUninit<::rust::Vec<::flinch::detail::Transform>> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$ClipData$frame(*this, index, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

::rust::Box<::flinch::detail::ClipData> ClipData::looped(double seconds) const {
  ::rust::MaybeUninit<::rust::Box<::flinch::detail::ClipData>> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$ClipData$looped(*this, seconds, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

// Prepares `clip` once (`config_json` empty: defaults): body model, preprocessing, gains.
::rust::Box<::flinch::detail::PreparedData> prepare_clip(::flinch::detail::ClipData const &clip, ::rust::Str config_json) {
  ::rust::MaybeUninit<::rust::Box<::flinch::detail::PreparedData>> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$prepare_clip(clip, config_json, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

double PreparedData::duration() const noexcept {
  return flinch$detail$cxxbridge1$198$PreparedData$duration(*this);
}

double PreparedData::step_size() const noexcept {
  return flinch$detail$cxxbridge1$198$PreparedData$step_size(*this);
}

::rust::Box<::flinch::detail::PreparedData> PreparedData::share() const noexcept {
  return ::rust::Box<::flinch::detail::PreparedData>::from_raw(flinch$detail$cxxbridge1$198$PreparedData$share(*this));
}

::flinch::detail::Transform PreparedData::root_target(double time) const {
  ::rust::MaybeUninit<::flinch::detail::Transform> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$PreparedData$root_target(*this, time, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

double PreparedData::floor() const {
  ::rust::MaybeUninit<double> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$PreparedData$floor(*this, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

// An empty world.
::rust::Box<::flinch::detail::WorldData> new_world() noexcept {
  return ::rust::Box<::flinch::detail::WorldData>::from_raw(flinch$detail$cxxbridge1$198$new_world());
}

::std::uint64_t WorldData::add_character(::flinch::detail::ClipData const &clip, ::rust::Str config_json) {
  ::rust::MaybeUninit<::std::uint64_t> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$add_character(*this, clip, config_json, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

void WorldData::set_character_contacts(bool enabled) noexcept {
  flinch$detail$cxxbridge1$198$WorldData$set_character_contacts(*this, enabled);
}

::std::uint64_t WorldData::add_prepared(::flinch::detail::PreparedData const &prepared) noexcept {
  return flinch$detail$cxxbridge1$198$WorldData$add_prepared(*this, prepared);
}

::std::uint64_t WorldData::add_streamed_character(::flinch::detail::ClipData const &clip, ::rust::Str config_json) {
  ::rust::MaybeUninit<::std::uint64_t> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$add_streamed_character(*this, clip, config_json, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

void WorldData::set_target_pose(::std::uint64_t key, ::rust::Slice<::flinch::detail::Transform const> pose, ::rust::Slice<double const> velocities) {
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$set_target_pose(*this, key, pose, velocities);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
}

void WorldData::remove_character(::std::uint64_t key) {
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$remove_character(*this, key);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
}

void WorldData::step(double dt) {
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$step(*this, dt);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
}

double WorldData::time() const noexcept {
  return flinch$detail$cxxbridge1$198$WorldData$time(*this);
}

void WorldData::apply_impulse(::std::uint64_t key, ::rust::Str bone, ::rust::Slice<double const> point, ::rust::Slice<double const> impulse) {
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$apply_impulse(*this, key, bone, point, impulse);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
}

::rust::Vec<::rust::String> WorldData::joint_names(::std::uint64_t key) const {
  ::rust::MaybeUninit<::rust::Vec<::rust::String>> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$joint_names(*this, key, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

::rust::Vec<double> WorldData::joint_deviations(::std::uint64_t key) const {
  ::rust::MaybeUninit<::rust::Vec<double>> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$joint_deviations(*this, key, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

::rust::Vec<::flinch::detail::Transform> WorldData::world_transforms(::std::uint64_t key) const {
  ::rust::MaybeUninit<::rust::Vec<::flinch::detail::Transform>> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$world_transforms(*this, key, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

::rust::Vec<::flinch::detail::Transform> WorldData::local_pose(::std::uint64_t key) const {
  ::rust::MaybeUninit<::rust::Vec<::flinch::detail::Transform>> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$local_pose(*this, key, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

::std::uint64_t WorldData::spawn_ball(double radius, double mass, ::rust::Slice<double const> position, ::rust::Slice<double const> velocity) {
  ::rust::MaybeUninit<::std::uint64_t> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$spawn_ball(*this, radius, mass, position, velocity, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

::rust::Vec<::flinch::detail::HitEvent> WorldData::events() const noexcept {
  ::rust::MaybeUninit<::rust::Vec<::flinch::detail::HitEvent>> return$;
  flinch$detail$cxxbridge1$198$WorldData$events(*this, &return$.value);
  return ::std::move(return$.value);
}

void WorldData::set_root_policy(::std::uint64_t key, ::flinch::detail::RootPolicy policy) {
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$set_root_policy(*this, key, policy);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
}

::flinch::detail::RootPolicy WorldData::root_policy(::std::uint64_t key) const {
  ::rust::MaybeUninit<::flinch::detail::RootPolicy> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$root_policy(*this, key, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

void WorldData::set_assist_weight(::std::uint64_t key, double weight) {
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$set_assist_weight(*this, key, weight);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
}

::flinch::detail::RootState WorldData::root_state(::std::uint64_t key) const {
  ::rust::MaybeUninit<::flinch::detail::RootState> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$root_state(*this, key, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

::rust::Vec<::flinch::detail::RootEvent> WorldData::root_events(::std::uint64_t key) const {
  ::rust::MaybeUninit<::rust::Vec<::flinch::detail::RootEvent>> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$root_events(*this, key, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

::rust::Vec<::flinch::detail::FallEvent> WorldData::fall_events(::std::uint64_t key) const {
  ::rust::MaybeUninit<::rust::Vec<::flinch::detail::FallEvent>> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$fall_events(*this, key, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

double WorldData::ground_floor(::std::uint64_t key) const {
  ::rust::MaybeUninit<double> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$ground_floor(*this, key, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

double WorldData::ground_penetration(::std::uint64_t key) const {
  ::rust::MaybeUninit<double> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$ground_penetration(*this, key, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

double WorldData::clip_time(::std::uint64_t key) const {
  ::rust::MaybeUninit<double> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$clip_time(*this, key, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

::std::uint64_t WorldData::add_collider(::flinch::detail::ColliderDesc const &desc, ::rust::Slice<double const> points, ::rust::Slice<::std::uint32_t const> triangles) {
  ::rust::MaybeUninit<::std::uint64_t> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$add_collider(*this, desc, points, triangles, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

void WorldData::remove_collider(::std::uint64_t key) {
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$remove_collider(*this, key);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
}

void WorldData::move_collider(::std::uint64_t key, ::flinch::detail::Transform const &pose, ::rust::Slice<double const> linear, ::rust::Slice<double const> angular) {
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$move_collider(*this, key, pose, linear, angular);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
}

::rust::Vec<::std::uint64_t> WorldData::load_level(::rust::Str path, ::flinch::detail::Transform const &pose) {
  ::rust::MaybeUninit<::rust::Vec<::std::uint64_t>> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$load_level(*this, path, pose, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

::rust::Box<::flinch::detail::PreparedData> WorldData::prepare_on_level(::flinch::detail::ClipData const &clip, ::rust::Str config_json) const {
  ::rust::MaybeUninit<::rust::Box<::flinch::detail::PreparedData>> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$prepare_on_level(*this, clip, config_json, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

::flinch::detail::RayHit WorldData::cast_ray(::rust::Slice<double const> origin, ::rust::Slice<double const> direction, double max_distance, ::std::uint32_t mask) const {
  ::rust::MaybeUninit<::flinch::detail::RayHit> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$cast_ray(*this, origin, direction, max_distance, mask, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

::flinch::detail::RayHit WorldData::cast_sphere(::rust::Slice<double const> origin, double radius, ::rust::Slice<double const> direction, double max_distance, ::std::uint32_t mask) const {
  ::rust::MaybeUninit<::flinch::detail::RayHit> return$;
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$cast_sphere(*this, origin, radius, direction, max_distance, mask, &return$.value);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
  return ::std::move(return$.value);
}

void WorldData::set_level_layers(::std::uint64_t key, ::std::uint32_t layers, ::std::uint32_t mask) {
  ::rust::repr::PtrLen error$ = flinch$detail$cxxbridge1$198$WorldData$set_level_layers(*this, key, layers, mask);
  if (error$.ptr) {
    throw ::rust::impl<::rust::Error>::error(error$);
  }
}
} // namespace detail
} // namespace flinch

extern "C" {
::flinch::detail::ClipData *cxxbridge1$box$flinch$detail$ClipData$alloc() noexcept;
void cxxbridge1$box$flinch$detail$ClipData$dealloc(::flinch::detail::ClipData *) noexcept;
void cxxbridge1$box$flinch$detail$ClipData$drop(::rust::Box<::flinch::detail::ClipData> *ptr) noexcept;

void cxxbridge1$rust_vec$flinch$detail$Transform$new(::rust::Vec<::flinch::detail::Transform> const *ptr) noexcept;
void cxxbridge1$rust_vec$flinch$detail$Transform$drop(::rust::Vec<::flinch::detail::Transform> *ptr) noexcept;
::std::size_t cxxbridge1$rust_vec$flinch$detail$Transform$len(::rust::Vec<::flinch::detail::Transform> const *ptr) noexcept;
::std::size_t cxxbridge1$rust_vec$flinch$detail$Transform$capacity(::rust::Vec<::flinch::detail::Transform> const *ptr) noexcept;
::flinch::detail::Transform const *cxxbridge1$rust_vec$flinch$detail$Transform$data(::rust::Vec<::flinch::detail::Transform> const *ptr) noexcept;
void cxxbridge1$rust_vec$flinch$detail$Transform$reserve_total(::rust::Vec<::flinch::detail::Transform> *ptr, ::std::size_t new_cap) noexcept;
void cxxbridge1$rust_vec$flinch$detail$Transform$set_len(::rust::Vec<::flinch::detail::Transform> *ptr, ::std::size_t len) noexcept;
void cxxbridge1$rust_vec$flinch$detail$Transform$truncate(::rust::Vec<::flinch::detail::Transform> *ptr, ::std::size_t len) noexcept;

::flinch::detail::PreparedData *cxxbridge1$box$flinch$detail$PreparedData$alloc() noexcept;
void cxxbridge1$box$flinch$detail$PreparedData$dealloc(::flinch::detail::PreparedData *) noexcept;
void cxxbridge1$box$flinch$detail$PreparedData$drop(::rust::Box<::flinch::detail::PreparedData> *ptr) noexcept;

::flinch::detail::WorldData *cxxbridge1$box$flinch$detail$WorldData$alloc() noexcept;
void cxxbridge1$box$flinch$detail$WorldData$dealloc(::flinch::detail::WorldData *) noexcept;
void cxxbridge1$box$flinch$detail$WorldData$drop(::rust::Box<::flinch::detail::WorldData> *ptr) noexcept;

void cxxbridge1$rust_vec$flinch$detail$HitEvent$new(::rust::Vec<::flinch::detail::HitEvent> const *ptr) noexcept;
void cxxbridge1$rust_vec$flinch$detail$HitEvent$drop(::rust::Vec<::flinch::detail::HitEvent> *ptr) noexcept;
::std::size_t cxxbridge1$rust_vec$flinch$detail$HitEvent$len(::rust::Vec<::flinch::detail::HitEvent> const *ptr) noexcept;
::std::size_t cxxbridge1$rust_vec$flinch$detail$HitEvent$capacity(::rust::Vec<::flinch::detail::HitEvent> const *ptr) noexcept;
::flinch::detail::HitEvent const *cxxbridge1$rust_vec$flinch$detail$HitEvent$data(::rust::Vec<::flinch::detail::HitEvent> const *ptr) noexcept;
void cxxbridge1$rust_vec$flinch$detail$HitEvent$reserve_total(::rust::Vec<::flinch::detail::HitEvent> *ptr, ::std::size_t new_cap) noexcept;
void cxxbridge1$rust_vec$flinch$detail$HitEvent$set_len(::rust::Vec<::flinch::detail::HitEvent> *ptr, ::std::size_t len) noexcept;
void cxxbridge1$rust_vec$flinch$detail$HitEvent$truncate(::rust::Vec<::flinch::detail::HitEvent> *ptr, ::std::size_t len) noexcept;

void cxxbridge1$rust_vec$flinch$detail$RootEvent$new(::rust::Vec<::flinch::detail::RootEvent> const *ptr) noexcept;
void cxxbridge1$rust_vec$flinch$detail$RootEvent$drop(::rust::Vec<::flinch::detail::RootEvent> *ptr) noexcept;
::std::size_t cxxbridge1$rust_vec$flinch$detail$RootEvent$len(::rust::Vec<::flinch::detail::RootEvent> const *ptr) noexcept;
::std::size_t cxxbridge1$rust_vec$flinch$detail$RootEvent$capacity(::rust::Vec<::flinch::detail::RootEvent> const *ptr) noexcept;
::flinch::detail::RootEvent const *cxxbridge1$rust_vec$flinch$detail$RootEvent$data(::rust::Vec<::flinch::detail::RootEvent> const *ptr) noexcept;
void cxxbridge1$rust_vec$flinch$detail$RootEvent$reserve_total(::rust::Vec<::flinch::detail::RootEvent> *ptr, ::std::size_t new_cap) noexcept;
void cxxbridge1$rust_vec$flinch$detail$RootEvent$set_len(::rust::Vec<::flinch::detail::RootEvent> *ptr, ::std::size_t len) noexcept;
void cxxbridge1$rust_vec$flinch$detail$RootEvent$truncate(::rust::Vec<::flinch::detail::RootEvent> *ptr, ::std::size_t len) noexcept;

void cxxbridge1$rust_vec$flinch$detail$FallEvent$new(::rust::Vec<::flinch::detail::FallEvent> const *ptr) noexcept;
void cxxbridge1$rust_vec$flinch$detail$FallEvent$drop(::rust::Vec<::flinch::detail::FallEvent> *ptr) noexcept;
::std::size_t cxxbridge1$rust_vec$flinch$detail$FallEvent$len(::rust::Vec<::flinch::detail::FallEvent> const *ptr) noexcept;
::std::size_t cxxbridge1$rust_vec$flinch$detail$FallEvent$capacity(::rust::Vec<::flinch::detail::FallEvent> const *ptr) noexcept;
::flinch::detail::FallEvent const *cxxbridge1$rust_vec$flinch$detail$FallEvent$data(::rust::Vec<::flinch::detail::FallEvent> const *ptr) noexcept;
void cxxbridge1$rust_vec$flinch$detail$FallEvent$reserve_total(::rust::Vec<::flinch::detail::FallEvent> *ptr, ::std::size_t new_cap) noexcept;
void cxxbridge1$rust_vec$flinch$detail$FallEvent$set_len(::rust::Vec<::flinch::detail::FallEvent> *ptr, ::std::size_t len) noexcept;
void cxxbridge1$rust_vec$flinch$detail$FallEvent$truncate(::rust::Vec<::flinch::detail::FallEvent> *ptr, ::std::size_t len) noexcept;
} // extern "C"

namespace rust {
inline namespace cxxbridge1 {
template <>
::flinch::detail::ClipData *Box<::flinch::detail::ClipData>::allocation::alloc() noexcept {
  return cxxbridge1$box$flinch$detail$ClipData$alloc();
}
template <>
void Box<::flinch::detail::ClipData>::allocation::dealloc(::flinch::detail::ClipData *ptr) noexcept {
  cxxbridge1$box$flinch$detail$ClipData$dealloc(ptr);
}
template <>
void Box<::flinch::detail::ClipData>::drop() noexcept {
  cxxbridge1$box$flinch$detail$ClipData$drop(this);
}
template <>
Vec<::flinch::detail::Transform>::Vec() noexcept {
  cxxbridge1$rust_vec$flinch$detail$Transform$new(this);
}
template <>
void Vec<::flinch::detail::Transform>::drop() noexcept {
  return cxxbridge1$rust_vec$flinch$detail$Transform$drop(this);
}
template <>
::std::size_t Vec<::flinch::detail::Transform>::size() const noexcept {
  return cxxbridge1$rust_vec$flinch$detail$Transform$len(this);
}
template <>
::std::size_t Vec<::flinch::detail::Transform>::capacity() const noexcept {
  return cxxbridge1$rust_vec$flinch$detail$Transform$capacity(this);
}
template <>
::flinch::detail::Transform const *Vec<::flinch::detail::Transform>::data() const noexcept {
  return cxxbridge1$rust_vec$flinch$detail$Transform$data(this);
}
template <>
void Vec<::flinch::detail::Transform>::reserve_total(::std::size_t new_cap) noexcept {
  return cxxbridge1$rust_vec$flinch$detail$Transform$reserve_total(this, new_cap);
}
template <>
void Vec<::flinch::detail::Transform>::set_len(::std::size_t len) noexcept {
  return cxxbridge1$rust_vec$flinch$detail$Transform$set_len(this, len);
}
template <>
void Vec<::flinch::detail::Transform>::truncate(::std::size_t len) {
  return cxxbridge1$rust_vec$flinch$detail$Transform$truncate(this, len);
}
template <>
::flinch::detail::PreparedData *Box<::flinch::detail::PreparedData>::allocation::alloc() noexcept {
  return cxxbridge1$box$flinch$detail$PreparedData$alloc();
}
template <>
void Box<::flinch::detail::PreparedData>::allocation::dealloc(::flinch::detail::PreparedData *ptr) noexcept {
  cxxbridge1$box$flinch$detail$PreparedData$dealloc(ptr);
}
template <>
void Box<::flinch::detail::PreparedData>::drop() noexcept {
  cxxbridge1$box$flinch$detail$PreparedData$drop(this);
}
template <>
::flinch::detail::WorldData *Box<::flinch::detail::WorldData>::allocation::alloc() noexcept {
  return cxxbridge1$box$flinch$detail$WorldData$alloc();
}
template <>
void Box<::flinch::detail::WorldData>::allocation::dealloc(::flinch::detail::WorldData *ptr) noexcept {
  cxxbridge1$box$flinch$detail$WorldData$dealloc(ptr);
}
template <>
void Box<::flinch::detail::WorldData>::drop() noexcept {
  cxxbridge1$box$flinch$detail$WorldData$drop(this);
}
template <>
Vec<::flinch::detail::HitEvent>::Vec() noexcept {
  cxxbridge1$rust_vec$flinch$detail$HitEvent$new(this);
}
template <>
void Vec<::flinch::detail::HitEvent>::drop() noexcept {
  return cxxbridge1$rust_vec$flinch$detail$HitEvent$drop(this);
}
template <>
::std::size_t Vec<::flinch::detail::HitEvent>::size() const noexcept {
  return cxxbridge1$rust_vec$flinch$detail$HitEvent$len(this);
}
template <>
::std::size_t Vec<::flinch::detail::HitEvent>::capacity() const noexcept {
  return cxxbridge1$rust_vec$flinch$detail$HitEvent$capacity(this);
}
template <>
::flinch::detail::HitEvent const *Vec<::flinch::detail::HitEvent>::data() const noexcept {
  return cxxbridge1$rust_vec$flinch$detail$HitEvent$data(this);
}
template <>
void Vec<::flinch::detail::HitEvent>::reserve_total(::std::size_t new_cap) noexcept {
  return cxxbridge1$rust_vec$flinch$detail$HitEvent$reserve_total(this, new_cap);
}
template <>
void Vec<::flinch::detail::HitEvent>::set_len(::std::size_t len) noexcept {
  return cxxbridge1$rust_vec$flinch$detail$HitEvent$set_len(this, len);
}
template <>
void Vec<::flinch::detail::HitEvent>::truncate(::std::size_t len) {
  return cxxbridge1$rust_vec$flinch$detail$HitEvent$truncate(this, len);
}
template <>
Vec<::flinch::detail::RootEvent>::Vec() noexcept {
  cxxbridge1$rust_vec$flinch$detail$RootEvent$new(this);
}
template <>
void Vec<::flinch::detail::RootEvent>::drop() noexcept {
  return cxxbridge1$rust_vec$flinch$detail$RootEvent$drop(this);
}
template <>
::std::size_t Vec<::flinch::detail::RootEvent>::size() const noexcept {
  return cxxbridge1$rust_vec$flinch$detail$RootEvent$len(this);
}
template <>
::std::size_t Vec<::flinch::detail::RootEvent>::capacity() const noexcept {
  return cxxbridge1$rust_vec$flinch$detail$RootEvent$capacity(this);
}
template <>
::flinch::detail::RootEvent const *Vec<::flinch::detail::RootEvent>::data() const noexcept {
  return cxxbridge1$rust_vec$flinch$detail$RootEvent$data(this);
}
template <>
void Vec<::flinch::detail::RootEvent>::reserve_total(::std::size_t new_cap) noexcept {
  return cxxbridge1$rust_vec$flinch$detail$RootEvent$reserve_total(this, new_cap);
}
template <>
void Vec<::flinch::detail::RootEvent>::set_len(::std::size_t len) noexcept {
  return cxxbridge1$rust_vec$flinch$detail$RootEvent$set_len(this, len);
}
template <>
void Vec<::flinch::detail::RootEvent>::truncate(::std::size_t len) {
  return cxxbridge1$rust_vec$flinch$detail$RootEvent$truncate(this, len);
}
template <>
Vec<::flinch::detail::FallEvent>::Vec() noexcept {
  cxxbridge1$rust_vec$flinch$detail$FallEvent$new(this);
}
template <>
void Vec<::flinch::detail::FallEvent>::drop() noexcept {
  return cxxbridge1$rust_vec$flinch$detail$FallEvent$drop(this);
}
template <>
::std::size_t Vec<::flinch::detail::FallEvent>::size() const noexcept {
  return cxxbridge1$rust_vec$flinch$detail$FallEvent$len(this);
}
template <>
::std::size_t Vec<::flinch::detail::FallEvent>::capacity() const noexcept {
  return cxxbridge1$rust_vec$flinch$detail$FallEvent$capacity(this);
}
template <>
::flinch::detail::FallEvent const *Vec<::flinch::detail::FallEvent>::data() const noexcept {
  return cxxbridge1$rust_vec$flinch$detail$FallEvent$data(this);
}
template <>
void Vec<::flinch::detail::FallEvent>::reserve_total(::std::size_t new_cap) noexcept {
  return cxxbridge1$rust_vec$flinch$detail$FallEvent$reserve_total(this, new_cap);
}
template <>
void Vec<::flinch::detail::FallEvent>::set_len(::std::size_t len) noexcept {
  return cxxbridge1$rust_vec$flinch$detail$FallEvent$set_len(this, len);
}
template <>
void Vec<::flinch::detail::FallEvent>::truncate(::std::size_t len) {
  return cxxbridge1$rust_vec$flinch$detail$FallEvent$truncate(this, len);
}
} // namespace cxxbridge1
} // namespace rust
