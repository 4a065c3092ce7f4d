package io.github.leanscrape.recording;

/**
 * The same tests as {@link CachingMeterObservationHandlerTests}, with the handler always
 * reading the public copy of the key values, as it does where the context's own map
 * cannot be read.
 */
class CachingMeterObservationHandlerPublicKeyValuesTests extends CachingMeterObservationHandlerTests {

	@Override
	boolean readContextInternals() {
		return false;
	}

}
