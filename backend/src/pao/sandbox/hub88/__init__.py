"""The sandbox's Hub88: a seamless aggregator speaking Hub88's Games API to Pao (game list,
launch URL) and calling Pao's Wallet API as Hub88 does, signed with Hub88's demo key, from game
pages that play (:mod:`.router`)."""
