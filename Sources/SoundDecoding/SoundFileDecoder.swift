// libsndfile decoding.
