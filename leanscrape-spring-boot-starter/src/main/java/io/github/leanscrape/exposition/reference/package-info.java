/**
 * The reference path: client_java's writers over {@code PrometheusRegistry.scrape()},
 * configured as Spring Boot's endpoint configures them, so that its bytes are that
 * endpoint's. The direct path falls back to it.
 * <p>
 * Imports {@code exposition} only.
 */
@NullMarked
package io.github.leanscrape.exposition.reference;

import org.jspecify.annotations.NullMarked;
