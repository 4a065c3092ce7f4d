/**
 * The direct path: text 0.0.4, OpenMetrics and protobuf written straight from
 * Micrometer's meters, over one meter index, with the reference path as fallback wherever
 * the same bytes cannot be promised; what it wrote and left to that path, family by
 * family ({@code RenderStatistics}, {@code CardinalityReport}).
 * <p>
 * Imports {@code exposition} and {@code exposition.reference} only.
 */
@NullMarked
package io.github.leanscrape.exposition.direct;

import org.jspecify.annotations.NullMarked;
