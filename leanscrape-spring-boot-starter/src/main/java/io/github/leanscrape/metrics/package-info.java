/**
 * The starter's own {@code leanscrape.*} meters in a Micrometer registry: what
 * {@code serve} records of each scrape through its {@code SelfMetrics}, and gauges over
 * the scraper, the pool, the encoders and the direct path's fallbacks. Imports
 * {@code serve}, {@code compression}, {@code exposition} and the direct path's statistics
 * ({@code exposition.direct}); only {@code autoconfigure} imports it.
 */
@NullMarked
package io.github.leanscrape.metrics;

import org.jspecify.annotations.NullMarked;
