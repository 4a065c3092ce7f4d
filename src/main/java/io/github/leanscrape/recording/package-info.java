/**
 * Recording observations into meters resolved once per distinct observation name and
 * low-cardinality key values, in place of Micrometer's default meter observation handler.
 */
@NullMarked
package io.github.leanscrape.recording;

import org.jspecify.annotations.NullMarked;
