/**
 * Tests against real scraping servers: Prometheus and VictoriaMetrics scraping the demo
 * application, and {@code promtool}'s lint of the text format.
 */
@NullMarked
package io.github.leanscrape.prometheus;

import org.jspecify.annotations.NullMarked;
