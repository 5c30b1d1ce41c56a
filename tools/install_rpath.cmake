# Programs installed into P/bin find libmpi in P/lib through an rpath relative to themselves
# ($ORIGIN), so they start with no LD_LIBRARY_PATH, from any prefix, also after the prefix is moved.
# The build tree keeps its absolute rpath. Included by tools/ and apps/ (a directory-scope default
# for every target they define).
file(RELATIVE_PATH _skiff_bin_to_lib ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
set(CMAKE_INSTALL_RPATH "$ORIGIN/${_skiff_bin_to_lib}")
