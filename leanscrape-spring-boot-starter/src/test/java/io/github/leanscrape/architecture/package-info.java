/**
 * Checks of the starter's structure.
 */
package io.github.leanscrape.architecture;
