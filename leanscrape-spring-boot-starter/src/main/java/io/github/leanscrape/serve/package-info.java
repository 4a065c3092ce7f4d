/**
 * One scrape from request to release: deadline, coalescing, cache, admission, encoding,
 * the starter's own metrics. Imports {@code reuse}, {@code compression} and
 * {@code exposition} only.
 */
@NullMarked
package io.github.leanscrape.serve;

import org.jspecify.annotations.NullMarked;
