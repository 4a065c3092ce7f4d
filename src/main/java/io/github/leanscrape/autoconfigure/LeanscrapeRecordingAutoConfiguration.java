package io.github.leanscrape.autoconfigure;

import io.github.leanscrape.recording.CachingMeterObservationHandler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler.IgnoredMeters;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the leanscrape meter observation handler.
 * <p>
 * Spring Boot registers every {@link MeterObservationHandler} bean, in order, in one
 * first-matching composite. The handler defined here supports every context and is
 * ordered first, so it records every observation's meters and the default handler is
 * never asked; tracing and other handlers are registered apart and still see every
 * observation. With a tracer, Spring Boot wraps it for exemplars as it wraps the default
 * handler.
 *
 * @author leanscrape
 */
@AutoConfiguration(after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class })
@ConditionalOnClass({ MeterObservationHandler.class, ObservationRegistry.class })
@ConditionalOnBooleanProperty(name = "leanscrape.recording.enabled", matchIfMissing = true)
@ConditionalOnBean(MeterRegistry.class)
@EnableConfigurationProperties({ LeanscrapeProperties.class, MetricsProperties.class })
public final class LeanscrapeRecordingAutoConfiguration {

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	@ConditionalOnMissingBean
	CachingMeterObservationHandler leanscrapeMeterObservationHandler(MeterRegistry meterRegistry,
			MetricsProperties metricsProperties, LeanscrapeProperties properties) {
		return new CachingMeterObservationHandler(meterRegistry, properties.getRecording().getMaxCachedMeters(),
				metricsProperties.getObservations().getIgnoredMeters().toArray(IgnoredMeters[]::new));
	}

}
