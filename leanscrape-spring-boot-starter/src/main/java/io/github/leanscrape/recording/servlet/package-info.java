/**
 * Recording Spring MVC requests: {@code http.server.requests} recorded from a servlet
 * filter without Micrometer's observation where only the starter's handler would see it
 * ({@link io.github.leanscrape.recording.servlet.ServerRequestMetricsFilter}), and
 * Spring's servlet request key values derived once per combination.
 * <p>
 * Imports {@code recording}; never {@code recording.reactive}, nor any package of the
 * scrape.
 */
@NullMarked
package io.github.leanscrape.recording.servlet;

import org.jspecify.annotations.NullMarked;
