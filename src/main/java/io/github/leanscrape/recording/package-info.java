/**
 * Recording observations into meters resolved once per distinct observation name and
 * low-cardinality key values, in place of Micrometer's default meter observation handler;
 * Spring MVC and Spring WebFlux request key values derived once per combination, in place
 * of Spring's conventions; and Spring MVC and Spring WebFlux requests recorded without an
 * observation where only the starter's handler would see it
 * ({@link io.github.leanscrape.recording.ServerRequestMetricsFilter},
 * {@link io.github.leanscrape.recording.ReactiveServerRequestRecording}).
 * <p>
 * Stands apart from the scrape: imports none of {@code web}, {@code endpoint},
 * {@code serve}, {@code exposition} or {@code autoconfigure}.
 */
@NullMarked
package io.github.leanscrape.recording;

import org.jspecify.annotations.NullMarked;
