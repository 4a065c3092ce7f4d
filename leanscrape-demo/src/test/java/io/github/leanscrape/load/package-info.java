/**
 * Load tests and experiments against the demo application in a process of its own: memory
 * under a storm of scrapes, and what scraping does to the latency of the application's
 * other requests.
 */
@NullMarked
package io.github.leanscrape.load;

import org.jspecify.annotations.NullMarked;
