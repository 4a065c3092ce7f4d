/**
 * Recording Spring WebFlux requests: {@code http.server.requests} recorded from a web
 * handler inside Spring's HTTP handler adapter without Micrometer's observation where
 * only the starter's handler would see it
 * ({@link io.github.leanscrape.recording.reactive.ReactiveServerRequestRecording}), and
 * Spring's reactive request key values derived once per combination.
 * <p>
 * Imports {@code recording}; never {@code recording.servlet}, nor any package of the
 * scrape.
 */
@NullMarked
package io.github.leanscrape.recording.reactive;

import org.jspecify.annotations.NullMarked;
