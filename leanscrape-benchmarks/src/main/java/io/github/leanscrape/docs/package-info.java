/**
 * The figures README.md and docs/ publish: the raw results they come from (JMH results
 * and the records of their runs, the tail-latency trials, the recording runs, the outputs
 * of the memory tests), the tables made from them, and the check that the documents hold
 * nothing else.
 */
@NullMarked
package io.github.leanscrape.docs;

import org.jspecify.annotations.NullMarked;
