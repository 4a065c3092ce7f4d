/**
 * Auto-configuration of the leanscrape starter and its {@code leanscrape.*} properties.
 */
@NullMarked
package io.github.leanscrape.autoconfigure;

import org.jspecify.annotations.NullMarked;
