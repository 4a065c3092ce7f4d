package io.github.leanscrape.autoconfigure;

import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.web.ScrapeEndpointPaths;
import io.github.leanscrape.web.reactive.ScrapeBodyHttpMessageWriter;
import io.github.leanscrape.web.reactive.ScrapeNegotiationWebFilter;

import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * The reactive glue of the leanscrape endpoint, in whichever context serves actuator
 * endpoints (the main one, or the child one of {@code management.server.port}).
 *
 * @author leanscrape
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnClass(DispatcherHandler.class)
@ConditionalOnBean({ LeanscrapeScrapeEndpoint.class, PathMappedEndpoints.class })
public final class LeanscrapeReactiveManagementContextConfiguration {

	@Bean
	ScrapeNegotiationWebFilter leanscrapeNegotiationWebFilter(PathMappedEndpoints pathMappedEndpoints) {
		return new ScrapeNegotiationWebFilter(new ScrapeEndpointPaths(pathMappedEndpoints));
	}

	@Bean
	WebFluxConfigurer leanscrapeWebFluxConfigurer(LeanscrapeScrapeEndpoint endpoint) {
		ScrapeBodyHttpMessageWriter writer = new ScrapeBodyHttpMessageWriter(endpoint.scraper());
		return new WebFluxConfigurer() {

			@Override
			public void configureHttpMessageCodecs(ServerCodecConfigurer configurer) {
				configurer.customCodecs().register(writer);
			}

		};
	}

}
