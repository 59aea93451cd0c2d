// Boost.URL's compiled part, built once for the whole project: Debian ships
// its headers but no library of it, and its sources are meant to be built
// this way (one translation unit including src.hpp).
#include <boost/url/src.hpp>
