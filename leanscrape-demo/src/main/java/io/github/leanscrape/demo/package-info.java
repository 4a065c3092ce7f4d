/**
 * A demo application that serves the leanscrape endpoint over a configurable number of
 * synthetic series, a few of them with values known in advance.
 */
@NullMarked
package io.github.leanscrape.demo;

import org.jspecify.annotations.NullMarked;
