/**
 * The direct path: text 0.0.4, OpenMetrics and protobuf written straight from
 * Micrometer's meters, over one meter index, with the reference path as fallback wherever
 * the same bytes cannot be promised.
 * <p>
 * Imports {@code exposition} only.
 */
@NullMarked
package io.github.leanscrape.exposition.direct;

import org.jspecify.annotations.NullMarked;
