/**
 * What the endpoint operation cannot see, per web stack: the {@code Accept} header with
 * its q-values, {@code Accept-Encoding}, and writing a body without copying it.
 */
@NullMarked
package io.github.leanscrape.web;

import org.jspecify.annotations.NullMarked;
