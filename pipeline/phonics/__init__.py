"""Phonics: what a word sounds like (CMU Pronouncing Dictionary), its phonics features and grade level."""
