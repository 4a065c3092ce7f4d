/**
 * The actuator endpoints: {@code prometheus}, in place of Spring Boot's, whose operation
 * answers with a scrape still to serve; and {@code leanscrape}, the cardinality report.
 * <p>
 * Imports {@code serve}, {@code exposition} and the direct path's report
 * ({@code exposition.direct}); never {@code web}, {@code autoconfigure} or
 * {@code recording}.
 */
@NullMarked
package io.github.leanscrape.endpoint;

import org.jspecify.annotations.NullMarked;
