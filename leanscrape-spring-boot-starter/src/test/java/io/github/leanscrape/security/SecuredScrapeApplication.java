package io.github.leanscrape.security;

import io.github.leanscrape.support.FrozenClock;
import io.github.leanscrape.support.RichMeters;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.security.autoconfigure.actuate.web.reactive.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.server.SecurityWebFilterChain;

/**
 * An application whose actuator endpoints require HTTP basic authentication, on either
 * stack, with the rich meters.
 */
@SpringBootApplication
public class SecuredScrapeApplication {

	static final String USER = "scraper";

	static final String PASSWORD = "secret";

	@Bean
	Clock micrometerClock() {
		return new FrozenClock();
	}

	@Bean
	MeterFilter onlyRichMeters() {
		return MeterFilter
			.denyUnless((id) -> id.getName().startsWith(RichMeters.PREFIX) || id.getName().startsWith("leanscrape."));
	}

	@Bean
	RichMeters richMeters(MeterRegistry registry) {
		return RichMeters.register(registry, 2000);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	static class ServletSecurity {

		@Bean
		SecurityFilterChain actuatorSecurity(HttpSecurity http) throws Exception {
			http.authorizeHttpRequests((requests) -> requests
				.requestMatchers(org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest
					.toAnyEndpoint())
				.authenticated()
				.anyRequest()
				.permitAll());
			http.httpBasic(Customizer.withDefaults());
			http.csrf((csrf) -> csrf.disable());
			return http.build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	static class ReactiveSecurity {

		@Bean
		SecurityWebFilterChain actuatorSecurity(ServerHttpSecurity http) {
			http.authorizeExchange((exchanges) -> exchanges.matchers(EndpointRequest.toAnyEndpoint())
				.authenticated()
				.anyExchange()
				.permitAll());
			http.httpBasic(Customizer.withDefaults());
			http.csrf((csrf) -> csrf.disable());
			return http.build();
		}

	}

}
