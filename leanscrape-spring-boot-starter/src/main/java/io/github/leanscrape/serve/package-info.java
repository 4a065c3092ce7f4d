/**
 * One scrape from request to release: deadline, coalescing, cache, admission, encoding,
 * and each scrape told to {@code SelfMetrics}. Imports {@code reuse}, {@code compression}
 * and {@code exposition} only.
 */
@NullMarked
package io.github.leanscrape.serve;

import org.jspecify.annotations.NullMarked;
