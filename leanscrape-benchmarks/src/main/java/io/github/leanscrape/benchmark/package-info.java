/**
 * JMH benchmarks of the scrape paths: Spring Boot's own endpoint against leanscrape's on
 * the same synthetic registry, whole and stage by stage, and the gate that compares their
 * allocation.
 */
@NullMarked
package io.github.leanscrape.benchmark;

import org.jspecify.annotations.NullMarked;
